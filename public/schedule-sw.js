// The timetable's offline copy (decision 040). Registered by /schedule only, with scope /schedule,
// so no other page is ever controlled by it. It keeps exactly one page, the current week's
// /schedule (the page marks itself with data-schedule-current), and the built assets that page
// loads. Offline, a navigation to /schedule answers with that copy and reveals its
// "offline · updated at" mark. Nothing else is cached: no other page, no data request, no money.
var PAGE_CACHE = "schedule-page-v1";
var ASSET_CACHE = "schedule-assets-v1";
var PAGE_KEY = "/schedule";
var ASSETS_KEPT = 40;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function isAsset(url) {
  return url.pathname.indexOf("/build/") === 0 || url.pathname.indexOf("/assets/") === 0 || url.pathname === "/favicon.svg";
}

function stamp(date) {
  return new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false }).format(date);
}

async function keepPage(response) {
  var text = await response.clone().text();
  // Only this week's page of the current term, never another week or a login page.
  if (text.indexOf("data-schedule-current") === -1) return;
  var headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "X-Cached-At": new Date().toISOString() });
  var cache = await caches.open(PAGE_CACHE);
  await cache.put(PAGE_KEY, new Response(text, { headers: headers }));
}

async function offlinePage() {
  var cache = await caches.open(PAGE_CACHE);
  var cached = await cache.match(PAGE_KEY);
  if (!cached) return Response.error();
  var at = new Date(cached.headers.get("X-Cached-At") || Date.now());
  var text = (await cached.text()).replace('id="offline-mark" hidden="" data-time=""', 'id="offline-mark" data-time="' + stamp(at) + '"');
  return new Response(text, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function page(request) {
  try {
    var response = await fetch(request);
    if (response.ok) await keepPage(response);
    // Sent to the login page: whoever is here now is not the student whose copy this is.
    if (response.redirected && new URL(response.url).pathname !== "/schedule") await caches.delete(PAGE_CACHE);
    return response;
  } catch (error) {
    return offlinePage();
  }
}

async function asset(request) {
  var cache = await caches.open(ASSET_CACHE);
  var cached = await cache.match(request);
  if (cached) return cached;
  var response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    var keys = await cache.keys();
    // Old builds' files go first (keys come back in insertion order).
    for (var i = 0; i < keys.length - ASSETS_KEPT; i++) await cache.delete(keys[i]);
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === "/schedule") event.respondWith(page(request));
  else if (isAsset(url)) event.respondWith(asset(request));
});
