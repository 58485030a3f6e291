// The operators' new-order badge (docs/architecture.md): polls /admin/new-orders.json every 20 s.
(function () {
  var d = document;
  var since = null;
  var title = d.title;

  function show(count) {
    var link = d.querySelector('nav a[href="/admin/orders"]');
    var badge = link && link.querySelector("[data-new-orders]");
    if (link && !badge) {
      badge = d.createElement("span");
      badge.setAttribute("data-new-orders", "");
      badge.className = "rounded-full bg-red-500 px-1.5 text-xs text-white";
      link.appendChild(badge);
    }
    if (badge) {
      badge.hidden = count === 0;
      badge.textContent = count > 99 ? "99+" : String(count);
    }
    d.title = count > 0 ? "(" + count + ") " + title : title;
  }

  function poll() {
    if (d.visibilityState === "hidden") return;
    fetch("/admin/new-orders.json" + (since ? "?since=" + encodeURIComponent(since) : ""), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (!answer) return;
        if (!since) since = answer.now;
        else show(answer.count);
      })
      .catch(function () {});
  }

  poll();
  setInterval(poll, 20000);
  d.addEventListener("visibilitychange", poll);
})();
