// The review page works without this script: moving a step then asks the
// server. With it, ↑ and ↓ (and Alt+↑, Alt+↓ anywhere in a step) move the
// step at once, keeping the focus where it was, and a screen reader hears
// where it went. The order is sent as the step's hidden "order" input,
// which moves with it.
"use strict";
(function () {
  var list = document.getElementById("steps");
  var form = document.getElementById("decision");
  if (!list || !form) {
    return;
  }
  var live = document.getElementById("live");

  // After a refused edit, the keyboard starts at the first field marked.
  var invalid = form.querySelector('[aria-invalid="true"]');
  if (invalid) {
    invalid.focus();
  }

  function steps() {
    return Array.prototype.slice.call(list.children);
  }

  function renumber() {
    var all = steps();
    all.forEach(function (li, i) {
      var pos = li.querySelector(".pos");
      if (pos) {
        pos.textContent = String(i + 1);
      }
      var up = li.querySelector('button[data-move="up"]');
      var down = li.querySelector('button[data-move="down"]');
      if (up) {
        up.disabled = i === 0;
      }
      if (down) {
        down.disabled = i === all.length - 1;
      }
    });
  }

  function move(li, dir) {
    var other = dir < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!other) {
      return false;
    }
    if (dir < 0) {
      list.insertBefore(li, other);
    } else {
      list.insertBefore(other, li);
    }
    renumber();
    steps().forEach(function (s) { s.classList.remove("moved"); });
    li.classList.add("moved");
    if (live) {
      live.textContent = "Step " + li.getAttribute("data-step") + " moved to position " +
        (steps().indexOf(li) + 1) + " of " + steps().length + ".";
    }
    return true;
  }

  list.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-move]");
    if (!button) {
      return;
    }
    ev.preventDefault();
    var li = button.closest("li.step");
    move(li, button.getAttribute("data-move") === "up" ? -1 : 1);
    // The button may have become disabled at the end of the list.
    if (button.disabled) {
      var other = li.querySelector("button[data-move]:not(:disabled)");
      if (other) {
        other.focus();
      }
    } else {
      button.focus();
    }
  });

  list.addEventListener("keydown", function (ev) {
    if (!ev.altKey || (ev.key !== "ArrowUp" && ev.key !== "ArrowDown")) {
      return;
    }
    var li = ev.target.closest("li.step");
    if (!li) {
      return;
    }
    ev.preventDefault();
    var focused = document.activeElement;
    move(li, ev.key === "ArrowUp" ? -1 : 1);
    if (focused) {
      focused.focus();
    }
  });

  list.addEventListener("change", function (ev) {
    if (ev.target.name === "remove") {
      ev.target.closest("li.step").classList.toggle("removed", ev.target.checked);
    }
  });

  // A rejection needs a reason: say so before the round trip.
  form.addEventListener("submit", function (ev) {
    var button = ev.submitter;
    var reason = document.getElementById("reason");
    if (button && button.value === "reject" && reason && reason.value.trim() === "") {
      ev.preventDefault();
      reason.setAttribute("aria-invalid", "true");
      reason.focus();
      if (live) {
        live.textContent = "Say why you reject the plan.";
      }
    }
  });
})();
