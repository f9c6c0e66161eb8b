; Generated from bench/internal/goapdeep by TestPDDL; do not edit.
; kelindar/goap's deep: hunger 80, no food, not tired; more than 80 food.
(define (problem goapdeep)
  (:domain goapdeep)
  (:objects n0 n5 n10 n15 n20 n25 n30 n35 n40 n45 n50 n55 n60 n65 n70 n75 n80 n85 n90 n95 n100 - num)
  (:init
    (hunger n80) (food n0) (tired n0)
    (eat-hunger n0 n0) (eat-hunger n5 n0) (eat-hunger n10 n0) (eat-hunger n15 n0) (eat-hunger n20 n0) (eat-hunger n25 n0) (eat-hunger n30 n0) (eat-hunger n35 n0) (eat-hunger n40 n0) (eat-hunger n45 n0) (eat-hunger n50 n0) (eat-hunger n55 n5) (eat-hunger n60 n10) (eat-hunger n65 n15) (eat-hunger n70 n20) (eat-hunger n75 n25) (eat-hunger n80 n30) (eat-hunger n85 n35) (eat-hunger n90 n40) (eat-hunger n95 n45) (eat-hunger n100 n50)
    (eat-food n5 n0) (eat-food n10 n5) (eat-food n15 n10) (eat-food n20 n15) (eat-food n25 n20) (eat-food n30 n25) (eat-food n35 n30) (eat-food n40 n35) (eat-food n45 n40) (eat-food n50 n45) (eat-food n55 n50) (eat-food n60 n55) (eat-food n65 n60) (eat-food n70 n65) (eat-food n75 n70) (eat-food n80 n75) (eat-food n85 n80) (eat-food n90 n85) (eat-food n95 n90) (eat-food n100 n95)
    (forage-hunger n0 n5) (forage-hunger n5 n10) (forage-hunger n10 n15) (forage-hunger n15 n20) (forage-hunger n20 n25) (forage-hunger n25 n30) (forage-hunger n30 n35) (forage-hunger n35 n40) (forage-hunger n40 n45) (forage-hunger n45 n50) (forage-hunger n50 n55) (forage-hunger n55 n60) (forage-hunger n60 n65) (forage-hunger n65 n70) (forage-hunger n70 n75) (forage-hunger n75 n80) (forage-hunger n80 n85) (forage-hunger n85 n90) (forage-hunger n90 n95) (forage-hunger n95 n100) (forage-hunger n100 n100)
    (forage-food n0 n10) (forage-food n5 n15) (forage-food n10 n20) (forage-food n15 n25) (forage-food n20 n30) (forage-food n25 n35) (forage-food n30 n40) (forage-food n35 n45) (forage-food n40 n50) (forage-food n45 n55) (forage-food n50 n60) (forage-food n55 n65) (forage-food n60 n70) (forage-food n65 n75) (forage-food n70 n80) (forage-food n75 n85) (forage-food n80 n90) (forage-food n85 n95) (forage-food n90 n100) (forage-food n95 n100) (forage-food n100 n100)
    (forage-tired n0 n20) (forage-tired n5 n25) (forage-tired n10 n30) (forage-tired n15 n35) (forage-tired n20 n40) (forage-tired n25 n45) (forage-tired n30 n50) (forage-tired n35 n55) (forage-tired n40 n60) (forage-tired n45 n65)
    (sleep-tired n35 n0) (sleep-tired n40 n0) (sleep-tired n45 n0) (sleep-tired n50 n0) (sleep-tired n55 n5) (sleep-tired n60 n10) (sleep-tired n65 n15) (sleep-tired n70 n20) (sleep-tired n75 n25) (sleep-tired n80 n30) (sleep-tired n85 n35) (sleep-tired n90 n40) (sleep-tired n95 n45) (sleep-tired n100 n50)
    (rich n85) (rich n90) (rich n95) (rich n100)
    (poor n0) (poor n5) (poor n10) (poor n15) (poor n20) (poor n25) (poor n30) (poor n35) (poor n40) (poor n45) (poor n50) (poor n55) (poor n60) (poor n65) (poor n70) (poor n75) (poor n80)
  )
  (:goal (stocked)))
