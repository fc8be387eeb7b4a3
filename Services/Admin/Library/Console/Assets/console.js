// The console's one script, for keyboard conveniences only: every page works without it.
// In the reports queue, j and k move between groups, and on a group d, h and b press its
// Dismiss, Hide and Ban buttons (its reason field is Tab away); on any page, / goes to the
// first search or filter field.
(function () {
  "use strict";
  function typing(element) {
    return element && (element.tagName === "INPUT" || element.tagName === "TEXTAREA" || element.tagName === "SELECT");
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(document.activeElement)) { return; }
    var groups = Array.prototype.slice.call(document.querySelectorAll(".queue .group"));
    var current = document.activeElement && document.activeElement.closest ? document.activeElement.closest(".group") : null;
    var index = groups.indexOf(current);
    if (event.key === "j" || event.key === "k") {
      if (groups.length === 0) { return; }
      var next = event.key === "j" ? Math.min(index + 1, groups.length - 1) : Math.max(index - 1, 0);
      groups[next].focus();
      event.preventDefault();
    } else if (current && (event.key === "d" || event.key === "h" || event.key === "b")) {
      var action = { d: "dismiss", h: "hide", b: "ban" }[event.key];
      var button = current.querySelector("button[value=" + action + "]");
      if (button) { button.click(); event.preventDefault(); }
    } else if (event.key === "/") {
      var field = document.querySelector("form.filters input");
      if (field) { field.focus(); event.preventDefault(); }
    }
  });
})();
