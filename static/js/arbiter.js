/* Site-wide behaviour that would otherwise be inline handlers (the CSP allows none):
   a form with data-confirm asks before it is sent. */
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form instanceof HTMLFormElement ? form.dataset.confirm : null;
  if (question && !window.confirm(question)) event.preventDefault();
});
