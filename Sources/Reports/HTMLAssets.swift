import Crypto

/// The HTML report's own style sheet and script, and the Content-Security-Policy that admits
/// exactly these two by their SHA-256 (so an injected `<script>`, `<style>`, inline handler or
/// `javascript:` URL would not run even if escaping failed).
enum HTMLAssets {
    static let contentSecurityPolicy =
        "default-src 'none'; img-src https: http:; style-src 'sha256-\(base64SHA256(style))'; "
        + "script-src 'sha256-\(base64SHA256(script))'; base-uri 'none'; form-action 'none'"

    /// The SHA-256 of `text`'s UTF-8 bytes (swift-crypto), in base64, as a CSP `'sha256-…'`
    /// source takes it.
    static func base64SHA256(_ text: String) -> String {
        Base64.encode(Array(SHA256.hash(data: Array(text.utf8))))
    }

    /// Severities differ by more than hue: each has its symbol (✖ ▲ ℹ) and name, and the
    /// colours differ in lightness too (a dark red, a light amber with dark text, a mid blue), so
    /// that they stay apart under red–green colour blindness (checked with Chromium's simulated
    /// deuteranopia, docs/html-report.md).
    static let style = """

        :root{--fg:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--bg:#fff;--panel:#f5f5f7;--error:#b3261e;--warning:#f0b400;\
        --info:#1f6fd1;--link:#0066cc;--ok:#00796b;--rule:#5e5ce6;--status:#8e8e93;--time:#30b0c7;\
        --candidate:#00796b}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
        header.top{padding:16px 24px;background:var(--panel);border-bottom:1px solid var(--line)}
        header.top h1{margin:0;font-size:20px}header.top .site{font-weight:400;color:var(--muted)}
        header.top .facts{margin:2px 0 6px;color:var(--muted);font-size:12px}
        header.top nav a{margin-right:14px}
        main{padding:8px 24px 48px;max-width:1200px}
        h2{margin:28px 0 10px;font-size:18px;border-bottom:1px solid var(--line);padding-bottom:4px}
        h4{margin:16px 0 6px}
        a{color:var(--link)}
        code,pre{font:12px/1.4 ui-monospace,"SF Mono",Menlo,Consolas,monospace;overflow-wrap:anywhere}
        pre{white-space:pre-wrap;background:var(--panel);padding:6px 8px;border-radius:6px;margin:4px 0}
        .muted{color:var(--muted)}
        .rtitle{color:var(--fg)}.rtitle code{background:var(--panel);padding:0 3px;border-radius:3px}
        table.fixes td:first-child{border-left:5px solid var(--status);color:var(--muted);white-space:nowrap;overflow-wrap:normal}
        table.fixes tr.error td:first-child{border-left-color:var(--error)}
        table.fixes tr.warning td:first-child{border-left-color:var(--warning)}
        table.fixes td:nth-child(2){width:42%}table.fixes td:nth-child(3){width:13em}
        table.fixes a.reach{font-weight:600}table.fixes .where{font-size:12px}
        .tiles{display:flex;flex-wrap:wrap;gap:10px}
        .tile{background:var(--panel);border-radius:10px;padding:10px 16px;min-width:110px;border-top:4px solid var(--status)}
        .tile .n{display:block;font-size:26px;font-weight:600}.tile .l{color:var(--muted)}
        .tile.error{border-color:var(--error)}.tile.warning{border-color:var(--warning)}.tile.info{border-color:var(--info)}
        .tile.candidate{border-color:var(--candidate)}.tile.pages{border-color:var(--rule)}
        .charts{display:flex;flex-wrap:wrap;gap:18px;margin-top:14px}
        figure.chart{margin:0;background:var(--panel);border-radius:10px;padding:10px 12px;max-width:100%;overflow-x:auto}
        figure.chart.wide{flex-basis:100%}
        figcaption{font-weight:600;margin-bottom:4px}
        svg text{font-size:12px;fill:var(--fg)}svg text.axis{fill:var(--muted);font-size:10px}
        rect.error{fill:var(--error)}rect.warning{fill:var(--warning)}rect.info{fill:var(--info)}rect.rule{fill:var(--rule)}
        rect.status{fill:var(--status)}rect.time{fill:var(--time)}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}
        dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
        table.grid{border-collapse:collapse;width:100%;margin:6px 0}
        table.grid th,table.grid td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
        table.grid thead th{background:var(--panel);white-space:nowrap}
        td.ok,.cand.yes{color:var(--ok)}td.bad,.cand.no{color:var(--error)}
        .badge{display:inline-block;border-radius:9px;padding:0 7px;font-size:11px;font-weight:600;color:#fff;background:var(--status);white-space:nowrap}
        .badge.error{background:var(--error)}.badge.warning{background:var(--warning);color:#1d1d1f}.badge.info{background:var(--info)}
        .pill{border-radius:9px;padding:0 7px;font-size:11px;border:1px solid currentColor}
        .pill.yes{color:var(--ok)}.pill.no{color:var(--error)}
        .filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:6px 0 10px}
        .filters select,.filters input{font:inherit;padding:2px 4px;max-width:32em}
        .plist-head,details.page>summary{display:grid;grid-template-columns:4.5em 9.5em minmax(0,1fr) 3.5em 4.5em 5.5em;gap:0 10px;align-items:baseline}
        .plist-head{position:sticky;top:0;z-index:1;background:var(--panel);border:1px solid var(--line);border-radius:8px 8px 0 0;padding:4px 10px}
        .plist-head button{font:inherit;font-weight:600;text-align:left;background:none;border:0;padding:2px 0;color:var(--fg);cursor:pointer}
        .plist-head button:disabled{cursor:default}
        .plist-head button[data-dir=asc]::after{content:" \\2191"}.plist-head button[data-dir=desc]::after{content:" \\2193"}
        details.page{border:1px solid var(--line);border-top:0;content-visibility:auto;contain-intrinsic-size:auto 40px;scroll-margin-top:44px}
        details.page>summary{padding:6px 10px;cursor:pointer;list-style:none}
        details.page>summary::-webkit-details-marker{display:none}
        details.page>summary .c-n::before{content:"\\25B8\\00A0";color:var(--muted)}
        details.page[open]>summary .c-n::before{content:"\\25BE\\00A0"}
        details.page[open]>summary{background:var(--panel)}
        details.page .c-n{color:var(--muted)}details.page .c-url code{display:block}details.page .ttl{display:block}
        details.page .body{padding:4px 14px 10px}
        @media (max-width:760px){.plist-head,details.page>summary{grid-template-columns:4em 7em minmax(0,1fr)}
        .c-status,.c-ms,.c-candidate{display:none}}
        details.coverage{margin:4px 0}
        .preview{display:flex;gap:12px;max-width:620px;padding:12px;border-radius:12px;background:var(--panel);margin:8px 0}
        .preview .thumb{flex:0 0 96px;height:96px;border-radius:8px;background:#e5e5ea;overflow:hidden;display:flex;align-items:center;justify-content:center}
        .preview .thumb img{width:96px;height:96px;object-fit:cover;color:transparent}
        .preview .nothumb{font-size:11px;color:var(--muted);text-align:center;padding:4px}
        .preview .text{min-width:0}.preview p{margin:0 0 3px;overflow-wrap:anywhere}
        .preview .ptitle{font-weight:600;font-size:15px}
        .preview .pdesc{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
        .preview .purl{color:var(--ok);font-size:12px}
        .stars{color:#ff9f0a;letter-spacing:1px}
        .action{display:inline-block;border-radius:12px;background:#fff;border:1px solid var(--line);padding:1px 10px;margin-right:6px;font-size:12px}
        .verdict.yes{color:var(--ok)}.verdict.no{color:var(--error)}
        .finding{border-left:4px solid var(--status);padding:2px 10px;margin:8px 0}
        .finding.error{border-color:var(--error)}.finding.warning{border-color:var(--warning)}.finding.info{border-color:var(--info)}
        .finding p{margin:2px 0}.finding .line{color:var(--muted)}.finding .cite{color:var(--muted);font-size:12px}
        .fix b{color:var(--ok)}
        table.attrs th{white-space:nowrap;font-weight:500}
        a.rule{font-weight:600;color:var(--fg)}tr:target,details.site:target{background:#fff3c4}
        details.site{margin:4px 0}ul.site-findings{margin:4px 0 8px;padding-left:22px}ul.site-findings li{margin:2px 0}
        details.site .fix{margin:0 0 8px 22px}
        code.excerpt{background:var(--panel);padding:0 4px;border-radius:4px}
        @media print{details.page{content-visibility:visible}}

        """

    /// Filtering and sorting the page list, the "show them in the page list" links (a rule's
    /// filter), opening a page's details when its anchor is the fragment, and loading a page's
    /// thumbnail when its details open. It reads only `data-*` attributes and `value`s; it never
    /// builds HTML.
    static let script = """

        (function () {
          'use strict';
          var list = document.getElementById('page-list');
          var form = document.getElementById('filters');
          var shown = document.getElementById('shown');
          var reset = function () {};
          if (list && form) {
            var pages = Array.prototype.slice.call(list.querySelectorAll('details.page'));
            form.hidden = false;
            var has = function (words, word) { return (' ' + words + ' ').indexOf(' ' + word + ' ') >= 0; };
            var apply = function () {
              var severity = form.elements.severity.value, rule = form.elements.rule.value;
              var candidate = form.elements.candidate.value, query = form.elements.q.value.toLowerCase();
              var linked = form.elements.linked ? form.elements.linked.value : '';
              var count = 0;
              for (var i = 0; i < pages.length; i++) {
                var data = pages[i].dataset;
                var visible = (!severity || has(data.severities, severity)) && (!rule || has(data.rules, rule)) &&
                  (!candidate || data.candidate === candidate) && (!linked || data.linked === linked) &&
                  (!query || data.url.indexOf(query) >= 0);
                pages[i].hidden = !visible;
                if (visible) { count++; }
              }
              shown.textContent = count + ' of ' + pages.length + ' pages shown';
            };
            reset = function (rule) {
              for (var i = 0; i < form.elements.length; i++) {
                if (form.elements[i].name) { form.elements[i].value = ''; }
              }
              if (rule) { form.elements.rule.value = rule; }
              apply();
            };
            form.addEventListener('input', apply);
            form.addEventListener('change', apply);
            form.addEventListener('submit', function (event) { event.preventDefault(); });
            // Sort keys: most severe first is (errors, warnings, info) descending; ties by number.
            var keys = {
              n: function (d) { return [+d.n]; },
              findings: function (d) { return [+d.e, +d.w, +d.i]; },
              url: function (d) { return [d.url]; },
              status: function (d) { return [+d.status]; },
              ms: function (d) { return [parseFloat(d.ms)]; },
              candidate: function (d) { return [d.candidate]; }
            };
            var sortBy = function (name, direction) {
              var keyed = pages.map(function (page) { return [keys[name](page.dataset), +page.dataset.n, page]; });
              keyed.sort(function (a, b) {
                for (var k = 0; k < a[0].length; k++) {
                  if (a[0][k] < b[0][k]) { return -direction; }
                  if (a[0][k] > b[0][k]) { return direction; }
                }
                return a[1] - b[1];
              });
              pages = keyed.map(function (entry) { return entry[2]; });
              // moveBefore keeps each page connected while it moves (a third faster on 5,000 pages).
              if (list.moveBefore) {
                pages.forEach(function (page) { list.moveBefore(page, null); });
              } else {
                var fragment = document.createDocumentFragment();
                pages.forEach(function (page) { fragment.appendChild(page); });
                list.appendChild(fragment);
              }
            };
            var buttons = Array.prototype.slice.call(list.querySelectorAll('button[data-sort]'));
            buttons.forEach(function (button) {
              button.disabled = false;
              button.addEventListener('click', function () {
                var name = button.dataset.sort;
                var direction = button.dataset.dir ? (button.dataset.dir === 'desc' ? 1 : -1) :
                  (name === 'findings' || name === 'ms' ? -1 : 1);
                buttons.forEach(function (other) {
                  delete other.dataset.dir;
                  other.setAttribute('aria-pressed', 'false');
                });
                button.dataset.dir = direction === 1 ? 'asc' : 'desc';
                button.setAttribute('aria-pressed', 'true');
                sortBy(name, direction);
              });
            });
            // "show them in the page list": the rule's filter, every other filter cleared.
            document.addEventListener('click', function (event) {
              var link = event.target.closest ? event.target.closest('a[data-rule]') : null;
              if (link) { reset(link.getAttribute('data-rule')); }
            });
            apply();
          }
          // Thumbnails (http(s) only, checked again here) load when their page's details open.
          document.addEventListener('toggle', function (event) {
            if (event.target.tagName !== 'DETAILS' || !event.target.open) { return; }
            var images = event.target.querySelectorAll('img[data-src]');
            for (var i = 0; i < images.length; i++) {
              var source = images[i].getAttribute('data-src');
              images[i].removeAttribute('data-src');
              if (/^https?:\\/\\//i.test(source)) { images[i].src = source; }
            }
          }, true);
          var openTarget = function () {
            var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
            if (target && target.tagName === 'DETAILS') {
              if (target.hidden) { reset(''); }
              target.open = true;
              target.scrollIntoView();
            }
          };
          window.addEventListener('hashchange', openTarget);
          openTarget();
        })();

        """
}
