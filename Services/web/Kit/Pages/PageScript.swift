/// `/static/live.js` and `/static/live.css`: served by web itself, so the page's
/// Content-Security-Policy can forbid every inline script and style.
enum PageScript {
    /// Keeps the page current from `/i/{token}/events`: the heading, who is on it, the walk, the position,
    /// its age, the marker, the timeline. Plain DOM, no framework; motion only if the reader has
    /// not asked for less.
    static let javaScript = #"""
        "use strict";
        (function () {
          var page = document.getElementById("page");
          if (!page || !window.EventSource) return;
          function $(id) { return document.getElementById(id); }
          var tiles = page.getAttribute("data-tiles");
          var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          var map = null, marker = null, last = null, skew = 0;
          function clock(at) {
            return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
          }
          function ago(seconds) {
            seconds = Math.max(0, Math.round(seconds));
            if (seconds < 60) return seconds + " s ago";
            var minutes = Math.round(seconds / 60);
            if (minutes < 60) return minutes + " min ago";
            return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min ago";
          }
          function stamp(at) {
            var t = document.createElement("time");
            t.setAttribute("datetime", new Date(at * 1000).toISOString());
            t.textContent = clock(at);
            return t;
          }
          function tick() {
            if (last && last.position) $("age").textContent = ago(Date.now() / 1000 + skew - last.position.tst);
          }
          function fill(id, items, make) {
            var list = $(id);
            list.textContent = "";
            items.forEach(function (item) { list.appendChild(make(item)); });
          }
          function showMap(p) {
            if (!tiles || !window.L) return;
            var box = $("map");
            box.hidden = false;
            if (!map) {
              map = L.map(box, { zoomAnimation: !still, fadeAnimation: !still, markerZoomAnimation: !still });
              map.setView([p.lat, p.lon], 16);
              L.tileLayer(tiles, { maxZoom: 19, attribution: "Map data © OpenStreetMap contributors" }).addTo(map);
              marker = L.marker([p.lat, p.lon], { keyboard: false }).addTo(map);
            } else {
              marker.setLatLng([p.lat, p.lon]);
              map.panTo([p.lat, p.lon], { animate: !still });
            }
          }
          function render(s) {
            last = s;
            skew = s.now - Date.now() / 1000;
            page.setAttribute("data-state", s.state);
            var heading = $("state");
            heading.setAttribute("data-level", s.level || "");
            if (s.state === "closed") {
              heading.textContent = s.walker + " is safe (at ";
              heading.appendChild(stamp(s.closedAt));
              heading.appendChild(document.createTextNode(")"));
            } else if (heading.textContent !== s.headline) {
              heading.textContent = s.headline;
            }
            if ($("on-it").textContent !== (s.onIt || "")) $("on-it").textContent = s.onIt || "";
            $("ack-form").hidden = s.state !== "open" || s.onIt === "You are on it";
            var w = s.walk, walk = $("walk");
            walk.hidden = !w;
            walk.textContent = "";
            if (w) {
              walk.appendChild(document.createTextNode("Walking to " + w.destination + ", expected by "));
              walk.appendChild(stamp(w.eta));
            }
            var p = s.position;
            $("position-details").hidden = !p;
            $("no-position").hidden = !!p;
            if (s.state === "closed") $("no-position").textContent = "No position is shown once " + s.walker + " is safe.";
            if (p) {
              $("coords").textContent = p.lat.toFixed(5) + ", " + p.lon.toFixed(5);
              $("maps-link").setAttribute("href", p.maps);
              $("accuracy").textContent = p.acc == null ? "unknown" : Math.round(p.acc) + " m";
              $("battery").textContent = p.batt == null ? "unknown" : Math.round(p.batt) + "%";
              tick();
              showMap(p);
            } else {
              ["coords", "accuracy", "battery", "age"].forEach(function (id) { $(id).textContent = ""; });
              $("maps-link").removeAttribute("href");
              if ($("map")) $("map").hidden = true;
            }
            fill("timeline", s.timeline, function (entry) {
              var item = document.createElement("li");
              item.appendChild(stamp(entry.at));
              item.appendChild(document.createTextNode(" " + entry.text));
              return item;
            });
            fill("people", s.people, function (person) {
              var item = document.createElement("li");
              var tier = person.tier === 1 ? "" : person.tier === 2 ? " (backup)" : " (dispatch)";
              item.textContent = person.name + tier + ": " + (person.told ? "told" : "not told yet");
              return item;
            });
          }
          document.querySelectorAll("time[datetime]").forEach(function (t) {
            t.textContent = clock(Date.parse(t.getAttribute("datetime")) / 1000);
          });
          var events = new EventSource(page.getAttribute("data-events"));
          events.addEventListener("snapshot", function (e) { render(JSON.parse(e.data)); });
          events.addEventListener("expired", function () {
            events.close();
            document.querySelector("main").textContent = "";
            var h = document.createElement("h1");
            h.textContent = "This link has expired";
            document.querySelector("main").appendChild(h);
          });
          setInterval(tick, 5000);
        })();
        """#

    static let css = #"""
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
        body { margin: 0 auto; max-width: 40rem; padding: 1rem; font-size: 1.125rem; }
        h1 { font-size: 1.6rem; margin: 0.5rem 0; }
        h1[data-level="red"] { color: #b00020; }
        h1[data-level="amber"] { color: #8a5a00; }
        h2 { font-size: 1.25rem; margin-top: 1.5rem; }
        button, a.button { display: inline-block; min-height: 48px; min-width: 48px; padding: 0.75rem 1.5rem;
          font-size: 1.25rem; border-radius: 0.5rem; border: 2px solid currentColor; text-decoration: none; }
        button { background: #0b57d0; color: #fff; width: 100%; cursor: pointer; }
        button:focus-visible, a:focus-visible { outline: 3px solid #ffb300; outline-offset: 2px; }
        #on-it { font-weight: bold; font-size: 1.25rem; }
        #map { height: 18rem; margin: 1rem 0; }
        .note { font-size: 0.95rem; opacity: 0.85; }
        [hidden] { display: none !important; }
        ol, ul { padding-left: 1.25rem; }
        @media (prefers-reduced-motion: reduce) {
          *, *::before, *::after { animation: none !important; transition: none !important; scroll-behavior: auto !important; }
        }
        """#
}
