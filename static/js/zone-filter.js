/* A search box for a long time-zone select: every select with data-zone-filter gets a
   "Find a time zone" field above it that narrows the select's options to the zones whose
   name holds what is typed ("tokyo", "new york", "berlin"), region groups kept. Without
   JavaScript the select alone works (grouped by region, type-ahead on a keyboard). The
   options are rebuilt, not hidden: phones' native pickers ignore hidden options. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };

  function words(text) {
    return text.toLowerCase().replace(/[_/]+/g, " ");
  }

  function snapshot(select) {
    var groups = [];
    for (var i = 0; i < select.children.length; i++) {
      var child = select.children[i];
      var options = child.tagName === "OPTGROUP" ? child.children : [child];
      var kept = [];
      for (var j = 0; j < options.length; j++) kept.push({ value: options[j].value, text: options[j].textContent });
      groups.push({ label: child.tagName === "OPTGROUP" ? child.label : null, options: kept });
    }
    return groups;
  }

  function matches(option, query) {
    return !query || words(option.value + " " + option.text).indexOf(query) !== -1;
  }

  // The select holds the zones matching ``query``, in their region groups. With no match
  // it keeps only the chosen zone, so the form's value is never lost to a typo; a match
  // list without the chosen zone chooses its first match (the select shows which).
  function rebuild(select, groups, query) {
    var chosen = select.value;
    var found = 0;
    groups.forEach(function (group) {
      group.options.forEach(function (o) { if (matches(o, query)) found += 1; });
    });
    var parts = [];
    groups.forEach(function (group) {
      var shown = group.options.filter(function (o) {
        return found ? matches(o, query) : o.value === chosen;
      });
      if (!shown.length) return;
      var parent = group.label === null ? null : document.createElement("optgroup");
      if (parent) parent.label = group.label;
      shown.forEach(function (o) {
        var option = document.createElement("option");
        option.value = o.value;
        option.textContent = o.text;
        if (parent) parent.appendChild(option);
        else parts.push(option);
      });
      if (parent) parts.push(parent);
    });
    select.replaceChildren.apply(select, parts);
    select.value = chosen;
    if (select.value !== chosen && select.options.length) {
      select.selectedIndex = 0;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return found;
  }

  function attach(select) {
    if (select.dataset.zoneFiltered) return;
    select.dataset.zoneFiltered = "1";
    var groups = snapshot(select);
    var id = (select.id || "zone") + "-find";
    var label = document.createElement("label");
    label.htmlFor = id;
    label.className = "zone-find";
    label.textContent = gettext("Find a time zone");
    var field = document.createElement("input");
    field.type = "search";
    field.id = id;
    field.autocomplete = "off";
    field.setAttribute("aria-controls", select.id);
    var status = document.createElement("small");
    status.id = id + "-status";
    status.setAttribute("aria-live", "polite");
    field.setAttribute("aria-describedby", status.id);
    // Under the select's own label: "Time zone", then the search, then the list.
    var named = select.id ? document.querySelector('label[for="' + select.id + '"]') : null;
    if (named) named.insertAdjacentElement("afterend", label);
    else select.insertAdjacentElement("beforebegin", label);
    label.insertAdjacentElement("afterend", field);
    field.insertAdjacentElement("afterend", status);
    field.addEventListener("input", function () {
      var query = words(field.value.trim());
      var found = rebuild(select, groups, query);
      status.textContent = query ? interpolate(
        ngettext("%(count)s time zone matches", "%(count)s time zones match", found),
        { count: found }, true) : "";
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var selects = document.querySelectorAll("select[data-zone-filter]");
    for (var i = 0; i < selects.length; i++) attach(selects[i]);
  });
})();
