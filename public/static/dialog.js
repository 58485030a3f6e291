// The dialog of a page that ships no React (handle.hydrate = false, decision 027): focus moves
// into it and Escape follows its close link, as the hydrated page does. Plain script, no build.
(function () {
  var dialog = document.querySelector("[data-static-dialog]");
  if (!dialog) return;
  dialog.focus();
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") window.location.assign(dialog.getAttribute("data-close") || "/");
  });
})();
