; kelindar/goap's "deep" benchmark (bench/internal/goapdeep) without
; numbers: Fast Downward's classical planner has no numeric fluents, so
; each of hunger, food and fatigue is one of the values 0, 5, ..., 100
; (every value the problem reaches is a multiple of 5, clamped to 0..100)
; and the problem file lists, for each action, how it moves each value
; (the clamped arithmetic, precondition included).
;
; The goal Food > 80 becomes the fact stocked, added by the forage that
; brings food above 80 (forage-stocked): a state with food above 80 is a
; goal state in both problems, and a search never expands a goal state,
; so both searches expand the same states.
(define (domain goapdeep)
  (:requirements :strips :typing)
  (:types num)
  (:predicates
    (hunger ?n - num) (food ?n - num) (tired ?n - num) (stocked)
    (eat-hunger ?a ?b - num) (eat-food ?a ?b - num)
    (forage-hunger ?a ?b - num) (forage-food ?a ?b - num) (forage-tired ?a ?b - num)
    (sleep-tired ?a ?b - num)
    (rich ?n - num) (poor ?n - num))

  (:action eat
    :parameters (?h ?h2 ?f ?f2 - num)
    :precondition (and (hunger ?h) (food ?f) (eat-hunger ?h ?h2) (eat-food ?f ?f2))
    :effect (and (not (hunger ?h)) (hunger ?h2) (not (food ?f)) (food ?f2)))

  (:action forage
    :parameters (?h ?h2 ?f ?f2 ?t ?t2 - num)
    :precondition (and (hunger ?h) (food ?f) (tired ?t)
                       (forage-hunger ?h ?h2) (forage-food ?f ?f2) (forage-tired ?t ?t2) (poor ?f2))
    :effect (and (not (hunger ?h)) (hunger ?h2) (not (food ?f)) (food ?f2) (not (tired ?t)) (tired ?t2)))

  (:action forage-stocked
    :parameters (?h ?h2 ?f ?f2 ?t ?t2 - num)
    :precondition (and (hunger ?h) (food ?f) (tired ?t)
                       (forage-hunger ?h ?h2) (forage-food ?f ?f2) (forage-tired ?t ?t2) (rich ?f2))
    :effect (and (not (hunger ?h)) (hunger ?h2) (not (food ?f)) (food ?f2) (not (tired ?t)) (tired ?t2) (stocked)))

  (:action sleep
    :parameters (?t ?t2 - num)
    :precondition (and (tired ?t) (sleep-tired ?t ?t2))
    :effect (and (not (tired ?t)) (tired ?t2))))
