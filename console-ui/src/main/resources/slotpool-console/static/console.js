// The slotpool console: keeps the server-rendered page live from the server-sent-event stream, draws the chart
// (the server's history of the last 15 minutes at once, then one point per stream event), filters the event log,
// opens slot details and sends the actions (with confirmation and the CSRF token). Plain JavaScript, no build.
// Data from the server is only ever set as textContent or attributes, never parsed as HTML.
(function () {
  'use strict';
  var body = document.body;
  var base = body.getAttribute('data-base');
  var query = body.getAttribute('data-query') || ''; // '?pool=key' when the app has several pools
  var HISTORY = 900; // one point a second: the last 15 minutes, as the server's history keeps
  var points = []; // oldest first, each {pool: values, origins: {name: values}} as {path}/history answers
  var chart = document.getElementById('chart');
  var chartOf = document.getElementById('chart-of');
  var filters = document.getElementById('event-filters');
  var lastEvents = null;
  var streamState = document.getElementById('stream-state');
  var outcome = document.getElementById('outcome');

  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute('content') : null;
  }

  function show(el, text) { if (el) { el.textContent = text == null ? '—' : String(text); } }

  // A field of the view by its path, e.g. 'sizes.total': the page names the fields of /actuator/pool's projection.
  function pick(obj, path) {
    return path.split('.').reduce(function (v, k) { return v == null ? v : v[k]; }, obj);
  }

  function setStream(state, text) {
    streamState.className = 'stream stream-' + state;
    streamState.textContent = text;
  }

  // The view: {pool: the projection /actuator/pool answers, live: what the console measures beside it, events}.
  function render(view) {
    var pool = view.pool, live = view.live;
    document.querySelectorAll('section.pool [data-h]').forEach(function (el) { show(el, pick(pool, el.getAttribute('data-h'))); });
    document.querySelectorAll('section.pool [data-live]').forEach(function (el) { show(el, live[el.getAttribute('data-live')]); });
    pool.origins.forEach(function (o) {
      var card = document.querySelector('article.origin[data-origin="' + CSS.escape(o.name) + '"]');
      if (!card) { setStream('stale', 'origins changed: reload the page'); return; }
      card.querySelectorAll('[data-o]').forEach(function (el) { show(el, pick(o, el.getAttribute('data-o'))); });
      card.querySelectorAll('[data-live]').forEach(function (el) { show(el, (live.origins[o.name] || {})[el.getAttribute('data-live')]); });
      // An UP origin whose server refuses new sessions says so where the reason of its state is shown.
      if (o.refusingNewSessions) { show(card.querySelector('[data-o="stateReason"]'), 'refusing new sessions'); }
      var badge = card.querySelector('.badge');
      badge.className = 'badge badge-' + o.state.toLowerCase();
      renderPooler(card, o);
      renderSlots(card, o);
    });
    renderFreeSlots(live.freeSlots);
    lastEvents = view.events;
    renderEvents();
    addPoints([livePoint(view)]);
  }

  // The pooler's view (shown once read, or once its console failed to answer), formatted as ConsoleView does.
  function renderPooler(card, o) {
    var box = card.querySelector('.pooler');
    box.hidden = o.pooler == null && o.poolerError == null;
    box.querySelector('.pooler-view').hidden = o.pooler == null;
    box.querySelector('.pooler-error').hidden = o.poolerError == null;
    show(box.querySelector('[data-pooler="maxWait"]'), o.pooler ? Math.round(o.pooler.maxWaitMicros / 1000) / 1000 + ' s' : null);
    show(box.querySelector('[data-pooler="readAt"]'), o.pooler ? readAt(o.pooler.readAt) : null);
  }

  // An instant as the JSON has it (ISO-8601, UTC), to the second.
  function readAt(iso) { return String(iso).replace(/\.\d+Z$/, 'Z'); }

  // A stream event as a point of the history: the same values the server samples each second.
  function livePoint(view) {
    function values(live, sizes, waiting) {
      return { borrowRate: live.borrowRate, waiting: waiting, waitP99Millis: live.waitP99Millis,
        available: sizes.available, borrowed: sizes.borrowed, creating: sizes.creating, closing: sizes.closing };
    }
    var origins = {};
    view.pool.origins.forEach(function (o) { origins[o.name] = values(view.live.origins[o.name] || {}, o.sizes, null); });
    return { pool: values(view.live, view.pool.sizes, view.pool.waiting), origins: origins };
  }

  function addPoints(more) {
    points = points.concat(more).slice(-HISTORY);
    chart.setAttribute('data-points', points.length);
    drawChart();
  }

  // The history the server kept before the page opened; stream events that came first stay after it.
  function loadHistory() {
    fetch(base + '/history' + query, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
      .then(function (history) {
        var live = points;
        points = [];
        chart.setAttribute('data-history', history.points.length);
        addPoints(history.points.concat(live));
      })
      .catch(function () { show(outcome, 'could not load the chart\'s history'); });
  }

  var FREE_CELLS_MAX = 256; // the template draws the same number; a larger pool's free slots are only counted

  function renderFreeSlots(n) {
    var list = document.querySelector('ul.free-slots');
    if (!list) { return; }
    var cells = [];
    for (var i = 0; i < Math.min(n, FREE_CELLS_MAX); i++) {
      var li = document.createElement('li');
      var span = document.createElement('span');
      span.className = 'slot slot-empty';
      span.title = 'free slot';
      span.textContent = '·';
      li.appendChild(span);
      cells.push(li);
    }
    list.replaceChildren.apply(list, cells);
  }

  // A slot's cell as the template draws it first (ConsoleViews.cell): class, letter (colour is not the only
  // carrier), hover and screen-reader text. Retiring is borrowed and to be closed at return.
  var SYMBOLS = { reserved: 'R', available: 'A', held: 'H', borrowed: 'B', closing: 'C', retiring: 'X' };
  function cell(slot) {
    var css = slot.retiring && slot.state === 'BORROWED' ? 'retiring' : slot.state.toLowerCase();
    var label = css === 'retiring' ? 'borrowed, retiring' : css;
    return { css: css, symbol: SYMBOLS[css] || '·', label: label,
      title: 'slot ' + slot.index + ': ' + label + ', ' + slot.borrowCount + (slot.borrowCount === 1 ? ' borrow' : ' borrows') };
  }

  // Each slot keeps its cell from one redraw to the next (keyed by slot index): a cell replaced every second would
  // take the keyboard's focus and a screen reader's place with it. Cells of emptied slots go, new slots get one.
  function renderSlots(card, o) {
    var list = card.querySelector('ul.slots');
    var kept = {};
    Array.prototype.slice.call(list.children).forEach(function (li) {
      var index = li.firstElementChild && li.firstElementChild.getAttribute('data-index');
      if (o.slots.some(function (slot) { return String(slot.index) === index; })) { kept[index] = li; } else { li.remove(); }
    });
    o.slots.forEach(function (slot, i) {
      var li = kept[slot.index];
      if (!li) {
        li = document.createElement('li');
        var created = document.createElement('button');
        created.type = 'button';
        created.setAttribute('data-index', slot.index);
        li.appendChild(created);
      }
      var c = cell(slot), b = li.firstElementChild;
      b.className = 'slot slot-' + c.css;
      b.title = c.title;
      b.setAttribute('aria-label', c.title);
      if (b.textContent !== c.symbol) { b.textContent = c.symbol; }
      // Slots come in index order, and so do the kept cells: only a new cell is ever inserted, never a kept one moved.
      if (list.children[i] !== li) { list.insertBefore(li, list.children[i] || null); }
    });
  }

  function renderEvents() {
    if (lastEvents === null) { return; }
    var origin = filters.elements.origin.value, type = filters.elements.type.value;
    var list = document.getElementById('events');
    list.replaceChildren.apply(list, lastEvents.filter(function (e) {
      return (!origin || e.origin === origin) && (!type || e.type === type);
    }).map(function (e) {
      var li = document.createElement('li');
      [['time', e.at], ['span.etype', e.type], ['span.eorigin', e.origin], ['span.ereason', e.reason],
        ['span.edetail', e.detail]].forEach(function (p) {
        var parts = p[0].split('.');
        var el = document.createElement(parts[0]);
        if (parts[1]) { el.className = parts[1]; }
        el.textContent = p[1] == null ? '' : p[1];
        li.appendChild(el);
        li.appendChild(document.createTextNode(' '));
      });
      return li;
    }));
  }

  // The download link carries the page's filters to {path}/events, which applies the same ones.
  function filterChanged() {
    var params = new URLSearchParams(query);
    ['origin', 'type'].forEach(function (name) {
      var v = filters.elements[name].value;
      if (v) { params.set(name, v); }
    });
    var q = params.toString();
    document.getElementById('events-download').setAttribute('href', base + '/events' + (q ? '?' + q : ''));
    renderEvents();
  }
  filters.addEventListener('change', filterChanged);
  filters.addEventListener('submit', function (e) { e.preventDefault(); });

  // Each line is scaled to its own maximum, which the legend states; a missing value leaves a gap in its line.
  function drawChart() {
    var key = chartOf.value;
    var shown = points.map(function (p) { return key ? (p.origins && p.origins[key]) || null : p.pool; });
    [['rate', 'borrowRate'], ['waiting', 'waiting'], ['p99', 'waitP99Millis'], ['borrowed', 'borrowed']]
      .forEach(function (line) {
        var values = shown.map(function (v) { return v ? v[line[1]] : null; });
        var known = values.filter(function (v) { return v != null; });
        var top = Math.max.apply(null, known.concat([0]));
        var max = top > 0 ? top : 1; // an all-zero line lies on the baseline
        var xy = [];
        values.forEach(function (v, i) {
          if (v == null) { return; }
          var x = (600 * (HISTORY - values.length + i) / (HISTORY - 1)).toFixed(1);
          xy.push(x + ',' + (135 - 130 * v / max).toFixed(1));
        });
        chart.querySelector('.line-' + line[0]).setAttribute('points', xy.join(' '));
        show(document.getElementById('chart-max-' + line[0]), known.length ? Math.round(top * 10) / 10 : null);
      });
  }
  chartOf.addEventListener('change', drawChart);

  // The stream: EventSource reconnects by itself after an error; the page says so meanwhile.
  function connect() {
    if (!window.EventSource) { setStream('down', 'live updates need EventSource'); return; }
    var source = new EventSource(base + '/stream' + query);
    source.onopen = function () { setStream('live', 'live'); };
    source.addEventListener('snapshot', function (e) {
      setStream('live', 'live');
      render(JSON.parse(e.data));
    });
    source.onerror = function () {
      // CLOSED: the server refused the stream (429: this user or address has 4 open, e.g. other console tabs;
      // 503: the console's 32 are in use) or went away; the page asks again every 5 s.
      setStream('down', source.readyState === EventSource.CLOSED
        ? 'stream refused or down (at most 4 per user: close other console tabs); retrying every 5 s'
        : 'stream down: reconnecting…');
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(function () { source.close(); connect(); }, 5000);
      }
    };
  }

  // Slot details on click or Enter/Space (buttons get both).
  document.addEventListener('click', function (e) {
    var slot = e.target.closest('ul.slots button.slot');
    if (!slot) { return; }
    var origin = slot.closest('article.origin').getAttribute('data-origin');
    openSlot(origin, slot.getAttribute('data-index'));
  });

  function openSlot(origin, index) {
    fetch(base + '/origins/' + encodeURIComponent(origin) + '/slots/' + index + query,
      { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (r) {
        var dialog = document.getElementById('slot-dialog');
        var dl = document.getElementById('slot-detail');
        var stack = document.getElementById('slot-stack');
        show(document.getElementById('slot-title'), origin + ' · slot ' + index);
        // The slot as /actuator/pool/{origin} shows it; its holder only for who may see holders, else null.
        var slot = r.body, holder = r.ok ? slot.holder : null;
        var rows = r.ok ? [
          ['state', cell(slot).label], ['borrows', slot.borrowCount], ['age', ms(slot.ageMillis)],
          ['idle', ms(slot.idleMillis)], ['held', ms(slot.heldMillis)],
          ['holder thread', holder ? holder.thread : null], ['labels', holder ? labels(holder.labels) : null]
        ] : [['error', r.body.message]];
        dl.replaceChildren.apply(dl, [].concat.apply([], rows.map(function (row) {
          var dt = document.createElement('dt'); dt.textContent = row[0];
          var dd = document.createElement('dd'); dd.textContent = row[1] == null ? '—' : row[1];
          return [dt, dd];
        })));
        stack.hidden = !(holder && holder.borrowStack);
        stack.textContent = holder && holder.borrowStack ? holder.borrowStack : '';
        if (dialog.showModal) { dialog.showModal(); } else { alert(dl.textContent); }
      })
      .catch(function () { show(outcome, 'could not load the slot'); });
  }

  function ms(v) { return v < 0 ? '—' : v + ' ms'; }
  function labels(m) {
    var keys = m ? Object.keys(m) : [];
    return keys.length ? keys.map(function (k) { return k + '=' + m[k]; }).join(', ') : 'none';
  }

  // Actions: confirm, post with the CSRF token, show the outcome or the refusal's message.
  function confirmAction(text) {
    var dialog = document.getElementById('confirm-dialog');
    if (!dialog.showModal) { return Promise.resolve(window.confirm(text)); }
    show(document.getElementById('confirm-text'), text);
    return new Promise(function (resolve) {
      dialog.addEventListener('close', function onClose() {
        dialog.removeEventListener('close', onClose);
        resolve(dialog.returnValue === 'ok');
      });
      dialog.returnValue = '';
      dialog.showModal();
    });
  }

  document.querySelectorAll('form.action').forEach(function (form) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var text = form.getAttribute('data-confirm') || 'Are you sure?';
      var params = new URLSearchParams(new FormData(form));
      form.querySelectorAll('input[name="weights"],input[name="to"],input[name="timeout"]').forEach(function (extra) {
        if (extra.value.trim()) { text += ' (' + extra.name + ' ' + extra.value.trim() + ')'; }
      });
      confirmAction(text).then(function (ok) {
        if (!ok) { show(outcome, 'cancelled'); return; }
        var headers = { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' };
        var token = meta('_csrf'), header = meta('_csrf_header');
        if (token && header) { headers[header] = token; }
        // The console's own token: every action needs it, with or without Spring Security.
        var consoleToken = meta('slotpool-console-token'), consoleHeader = meta('slotpool-console-token-header');
        if (consoleToken && consoleHeader) { headers[consoleHeader] = consoleToken; }
        fetch(form.action, { method: 'POST', headers: headers, body: params.toString(), credentials: 'same-origin' })
          .then(function (r) {
            return r.json().catch(function () { return { message: 'HTTP ' + r.status }; })
              .then(function (j) { return { ok: r.ok, status: r.status, body: j }; });
          })
          .then(function (r) {
            outcome.className = 'outcome ' + (r.ok ? 'outcome-ok' : 'outcome-error');
            // The endpoint's answer: the outcome, led here by the selector it acted on.
            show(outcome, r.ok ? (r.body.origin ? r.body.origin + ': ' : '') + r.body.outcome
              : 'refused (' + r.status + '): ' + r.body.message);
          })
          .catch(function () {
            outcome.className = 'outcome outcome-error';
            show(outcome, 'the request failed: is the app reachable?');
          });
      });
    });
  });

  loadHistory();
  connect();
})();
