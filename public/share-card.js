// The share card of a page that ships no React (the blog article, issue 19's static budget).
// The page renders a hidden button with data-share-* (title, desc, link, img) and the texts to
// show. Inside the messenger this asks POST /api/wechat/jsapi-config for the page's URL (without
// its #hash: the rule app/components/share.ts follows for hydrated pages) and sets the card with
// the JS-SDK's updateAppMessageShareData / updateTimelineShareData. Anywhere, the button appears
// and copies the link. No JavaScript: no button, nothing else changes.
(function () {
  var SDK = "https://res.wx.qq.com/open/js/jweixin-1.6.0.js";
  var d = document;

  function abs(path) {
    return new URL(path, location.href).href;
  }

  function sdk(done) {
    if (window.wx) return done(window.wx);
    var s = d.createElement("script");
    s.src = SDK;
    s.async = true;
    s.onload = function () { done(window.wx || null); };
    s.onerror = function () { done(null); };
    d.head.appendChild(s);
  }

  function messengerCard(card) {
    if (!/MicroMessenger/i.test(navigator.userAgent) || !window.fetch) return;
    fetch("/api/wechat/jsapi-config", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ url: location.href.split("#")[0] }),
    })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (!body || !body.success || !body.data) return;
        sdk(function (wx) {
          if (!wx) return;
          var options = { debug: false };
          for (var k in body.data) options[k] = body.data[k];
          wx.config(options);
          wx.ready(function () {
            wx.updateAppMessageShareData(card);
            wx.updateTimelineShareData(card);
          });
        });
      })
      .catch(function () {});
  }

  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, fallback);
    }
    return Promise.resolve(fallback());
    function fallback() {
      try {
        var a = d.createElement("textarea");
        a.value = text;
        a.setAttribute("readonly", "");
        a.style.position = "fixed";
        a.style.opacity = "0";
        d.body.appendChild(a);
        a.select();
        var ok = d.execCommand("copy");
        d.body.removeChild(a);
        return ok;
      } catch (e) {
        return false;
      }
    }
  }

  function init() {
    var button = d.querySelector("[data-share-title]");
    if (!button || button.getAttribute("data-share-ready")) return;
    button.setAttribute("data-share-ready", "1");
    var ds = button.dataset;
    var link = abs(ds.shareLink || location.pathname);
    messengerCard({ title: ds.shareTitle, desc: ds.shareDesc || "", link: link, imgUrl: abs(ds.shareImg || "/share-card.png") });
    var status = d.querySelector("[data-share-status]");
    var timer;
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(link).then(function (ok) {
        if (!status) return;
        status.textContent = ok ? ds.copied : ds.copyFailed + " " + link;
        status.hidden = false;
        clearTimeout(timer);
        timer = setTimeout(function () { status.hidden = true; }, 3000);
      });
    });
  }

  window.campusShareCard = init;
  if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", init);
  else init();
})();
