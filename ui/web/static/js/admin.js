// Administration pages: a copy button for the API key shown once after it is created. The button
// stays hidden without JavaScript (the page says how to copy by hand). Loaded again by each htmx
// swap of that page, so it installs its one listener only once.
(function () {
  "use strict";
  function reveal() {
    document.querySelectorAll("button[data-copy].hidden").forEach(function (button) {
      if (navigator.clipboard) {
        button.classList.remove("hidden");
      }
    });
  }
  if (window.ctxAdminCopy) {
    reveal();
    return;
  }
  window.ctxAdminCopy = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) {
      return;
    }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    navigator.clipboard.writeText(field.value).then(function () {
      button.textContent = "Copied";
    }, function () {
      field.select();
      button.textContent = "Select and copy by hand";
    });
  });
  document.addEventListener("htmx:afterSwap", reveal);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", reveal);
  } else {
    reveal();
  }
})();
