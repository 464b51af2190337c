// ctx workbench behaviour that HTML attributes cannot express. No inline scripts anywhere (the
// CSP forbids them): pages opt in through data- attributes.
(function () {
  "use strict";
  // After a swap of the main area, move focus there so keyboard and screen-reader users land on
  // the new content (a full page load does this by itself).
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "main") {
      var heading = target.querySelector("h1");
      (heading || target).setAttribute("tabindex", "-1");
      (heading || target).focus({ preventScroll: false });
    }
  });
})();
