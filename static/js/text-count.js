/* A count as you type for text with a limit: every input or textarea with both
   maxlength and data-count gets "12 of 200 characters" beside it, said politely to
   screen readers once the text is close to its limit. A file of its own, not inline
   script (the CSP allows none); without JavaScript, maxlength alone still holds. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/); English without it.
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };

  function counterFor(field) {
    var counter = document.createElement("small");
    counter.className = "text-count";
    counter.id = (field.id || field.name || "field") + "-count";
    field.insertAdjacentElement("afterend", counter);
    var described = field.getAttribute("aria-describedby");
    field.setAttribute("aria-describedby", (described ? described + " " : "") + counter.id);
    return counter;
  }

  function show(field, counter) {
    var limit = parseInt(field.getAttribute("maxlength"), 10);
    var used = field.value.length;
    // Translators: used and limit are numbers of characters ("12 of 200 characters").
    counter.textContent = interpolate(ngettext("%(used)s of %(limit)s character", "%(used)s of %(limit)s characters", limit),
      { used: used.toLocaleString(), limit: limit.toLocaleString() }, true);
    var near = used >= limit * 0.9;
    counter.classList.toggle("text-count-near", near);
    counter.setAttribute("aria-live", near ? "polite" : "off");
  }

  function attach(field) {
    if (field.dataset.counted || !field.hasAttribute("maxlength")) return;
    field.dataset.counted = "1";
    var counter = counterFor(field);
    show(field, counter);
    field.addEventListener("input", function () { show(field, counter); });
  }

  function attachAll(root) {
    var fields = root.querySelectorAll("input[data-count], textarea[data-count]");
    for (var i = 0; i < fields.length; i++) attach(fields[i]);
  }

  document.addEventListener("DOMContentLoaded", function () { attachAll(document); });
  document.addEventListener("htmx:afterSwap", function (event) { attachAll(event.target); });
})();
