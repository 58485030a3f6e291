// New paid orders on the operators' pages without a reload (a plain deferred script, outside the
// pages' JavaScript budget). Every 20 s while the tab is visible it asks
// /admin/new-orders.json how many orders were paid since this page was loaded (the server's
// clock), and shows the count on a badge it adds to the nav's 订单管理 link, and in the tab's title.
// Without JavaScript the badge stays hidden; a reload shows the new orders anyway.
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
