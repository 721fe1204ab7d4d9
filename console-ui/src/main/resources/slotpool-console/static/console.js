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
  var mayAct = body.getAttribute('data-actions') === 'true';

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
    document.querySelector('[data-closed]').hidden = !pool.closed;
    pool.origins.forEach(function (o) {
      var card = document.querySelector('article.origin[data-origin="' + CSS.escape(o.name) + '"]');
      if (!card) { setStream('stale', 'origins changed: reload the page'); return; }
      card.querySelectorAll('[data-o]').forEach(function (el) { show(el, pick(o, el.getAttribute('data-o'))); });
      // A field the origin has no value for (an H2 origin has no service, database or role) is not shown at all.
      card.querySelectorAll('[data-hide-empty]').forEach(function (el) {
        var v = pick(o, el.getAttribute('data-o'));
        el.parentElement.hidden = v == null || v === 'UNKNOWN';
      });
      var switchover = card.querySelector('form.switchover');
      if (switchover) { switchover.hidden = o.role !== 'PRIMARY'; }
      card.querySelectorAll('[data-live]').forEach(function (el) { show(el, (live.origins[o.name] || {})[el.getAttribute('data-live')]); });
      // An UP origin whose server refuses new sessions says so where the reason of its state is shown.
      if (o.refusingNewSessions) { show(card.querySelector('[data-o="stateReason"]'), 'refusing new sessions'); }
      var badge = card.querySelector('.badge');
      badge.className = 'badge badge-' + o.state.toLowerCase();
      renderPooler(card, o);
      renderLimit(card, limitOf(pool, o.name));
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
    var readAt = box.querySelector('[data-pooler="readAt"]');
    if (o.pooler) { when(readAt, o.pooler.readAt, false); } else { show(readAt, null); }
  }

  // An origin's adaptive limit in the pool's view, or null (fixed sizing).
  function limitOf(pool, origin) {
    return (pool.limits || []).filter(function (l) { return l.origin === origin; })[0] || null;
  }

  // The limit's block (the template draws it only under adaptive sizing), pinned shown as ConsoleView.pinned does.
  function renderLimit(card, l) {
    var box = card.querySelector('.limit');
    if (!box || !l) { return; }
    box.querySelectorAll('[data-l]').forEach(function (el) {
      var name = el.getAttribute('data-l');
      show(el, name === 'pinned' ? (l.pinned > 0 ? 'at ' + l.pinned : 'no') : l[name]);
    });
  }

  // An instant as the JSON has it (ISO-8601, UTC, up to nanoseconds), shown in the browser's zone, to the second
  // (with milliseconds for events, which come several a second); the date only when it is not today. The element
  // keeps the instant in its datetime attribute and, in UTC, in its title.
  function when(el, iso, millis) {
    var d = new Date(String(iso).replace(/(\.\d{3})\d+/, '$1'));
    if (isNaN(d.getTime())) { show(el, iso); return; }
    var opts = { hour: '2-digit', minute: '2-digit', second: '2-digit' }; // 12 or 24 h as the browser's locale has it
    if (millis) { opts.fractionalSecondDigits = 3; }
    if (d.toDateString() !== new Date().toDateString()) { opts.year = 'numeric'; opts.month = 'short'; opts.day = 'numeric'; }
    el.textContent = d.toLocaleString([], opts);
    el.setAttribute('datetime', iso);
    el.title = d.toISOString();
  }

  // A stream event as a point of the history: the same values the server samples each second.
  function livePoint(view) {
    function values(live, sizes, waiting, limit, heldBack) {
      return { borrowRate: live.borrowRate, waiting: waiting, waitP99Millis: live.waitP99Millis,
        available: sizes.available, borrowed: sizes.borrowed, creating: sizes.creating, closing: sizes.closing,
        limit: limit, heldBack: heldBack };
    }
    var origins = {}, limits = view.pool.limits || [];
    view.pool.origins.forEach(function (o) {
      var l = limitOf(view.pool, o.name);
      origins[o.name] = values(view.live.origins[o.name] || {}, o.sizes, null, l ? l.limit : null, l ? l.heldBack : null);
    });
    // The pool's limit is its origins' summed, as ConsoleHistory samples it; none under fixed sizing.
    function sum(name) {
      return limits.length ? limits.reduce(function (n, l) { return n + l[name]; }, 0) : null;
    }
    return { at: view.live.at, pool: values(view.live, view.pool.sizes, view.pool.waiting, sum('limit'), sum('heldBack')),
      origins: origins };
  }

  // Points stay in time order: a stream event taken before the history's last second is already in it.
  function addPoints(more) {
    more.forEach(function (p) {
      if (points.length && p.at <= points[points.length - 1].at) { return; }
      points.push(p);
    });
    var newest = points.length ? points[points.length - 1].at : 0;
    points = points.filter(function (p) { return p.at > newest - HISTORY * 1000; });
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
        var created = document.createElement(mayAct ? 'button' : 'span');
        if (mayAct) { created.type = 'button'; } else { created.setAttribute('role', 'img'); }
        created.setAttribute('data-index', slot.index);
        li.appendChild(created);
      }
      var c = cell(slot), b = li.firstElementChild;
      b.className = 'slot slot-' + c.css;
      b.setAttribute('data-borrows', slot.borrowCount);
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
      [['time', null], ['span.etype', e.type], ['span.eorigin', e.origin], ['span.ereason', e.reason],
        ['span.edetail', e.detail]].forEach(function (p) {
        var parts = p[0].split('.');
        var el = document.createElement(parts[0]);
        if (parts[1]) { el.className = parts[1]; }
        if (parts[0] === 'time') { when(el, e.at, true); } else { el.textContent = p[1] == null ? '' : p[1]; }
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

  // The chart: one small panel per unit, each with its own y axis from zero and one time axis shared by all,
  // scaled to the seconds present (up to the 15 minutes kept), labelled in the browser's time zone. Hand-drawn SVG:
  // its axes and labels are text a screen reader and a test can read. A gap of more than 2 s (a missed second)
  // breaks a line, as does a value the point has not got.
  // Each panel's lines by the point's value names; its caption (units, keys) is the template's, which draws the
  // limit's only under adaptive sizing.
  var PANELS = [
    { id: 'connections', counts: true, series: ['borrowed', 'available', 'creating'] },
    { id: 'limit', counts: true, series: ['borrowed', 'limit', 'heldBack'] }, // lent drawn as borrowed is above
    { id: 'rate', series: ['borrowRate'] },
    { id: 'wait', series: ['waitP99Millis'], empty: 'no wait timer (no MeterRegistry)' },
    { id: 'waiting', counts: true, series: ['waiting'], poolOnly: true }
  ].filter(function (panel) { return chart.querySelector('[data-panel="' + panel.id + '"]'); });
  var SVG = 'http://www.w3.org/2000/svg';
  var MIN_SPAN = 10000; // a frame never narrower than 10 s, so the first seconds are not one vertical smear

  function svgEl(name, attrs, text) {
    var el = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (text != null) { el.textContent = text; }
    return el;
  }

  // A round step giving at most `most` ticks over `span`, from a list of steps a reader counts in.
  function stepFor(span, most, steps) {
    for (var i = 0; i < steps.length; i++) { if (span / steps[i] <= most) { return steps[i]; } }
    return steps[steps.length - 1];
  }
  var TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900].map(function (s) { return s * 1000; });
  // Steps of 1, 2 or 5 times a power of ten around max; whole ones only for a panel that counts.
  function valueSteps(max, counts) {
    var e = Math.pow(10, Math.floor(Math.log10(Math.max(max, 1e-9))));
    return [0.1, 0.2, 0.5, 1, 2, 5, 10].map(function (m) { return m * e; })
      .filter(function (step) { return !counts || step >= 1; });
  }

  function clock(t, withSeconds) {
    return new Date(t).toLocaleTimeString([], withSeconds ? { hour: '2-digit', minute: '2-digit', second: '2-digit' }
      : { hour: '2-digit', minute: '2-digit' });
  }
  function number(v) { return Math.abs(v) >= 100 || v === Math.round(v) ? String(Math.round(v)) : String(Math.round(v * 10) / 10); }

  function drawChart() {
    var key = chartOf.value;
    var shown = points.map(function (p) { return { at: p.at, v: key ? (p.origins && p.origins[key]) || null : p.pool }; });
    var t1 = shown.length ? shown[shown.length - 1].at : Date.now();
    var t0 = shown.length ? Math.min(shown[0].at, t1 - MIN_SPAN) : t1 - MIN_SPAN;
    chart.setAttribute('data-span-seconds', Math.round((t1 - t0) / 1000));
    PANELS.forEach(function (panel) { drawPanel(panel, shown, t0, t1, key); });
  }

  function drawPanel(panel, shown, t0, t1, key) {
    var box = chart.querySelector('[data-panel="' + panel.id + '"]');
    box.hidden = !!(panel.poolOnly && key);
    if (box.hidden) { return; }
    var svg = box.querySelector('svg');
    var width = Math.max(240, Math.round(svg.getBoundingClientRect().width) || 320), height = 150;
    var L = 44, R = 12, T = 8, B = 22, w = width - L - R, h = height - T - B;
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    var top = 0, known = 0;
    shown.forEach(function (p) {
      panel.series.forEach(function (s) { var v = p.v ? p.v[s] : null; if (v != null) { known++; top = Math.max(top, v); } });
    });
    var ystep = stepFor(top > 0 ? top : 1, 4, valueSteps(top > 0 ? top : 1, panel.counts));
    var ymax = Math.max(ystep, Math.ceil(top / ystep - 1e-9) * ystep);
    function x(t) { return L + w * (t - t0) / (t1 - t0); }
    function y(v) { return T + h - h * v / ymax; }
    var nodes = [];
    for (var i = 0; i * ystep <= ymax + ystep / 2; i++) {
      var v = i * ystep;
      nodes.push(svgEl('line', { 'class': 'grid', x1: L, x2: L + w, y1: y(v).toFixed(1), y2: y(v).toFixed(1) }));
      nodes.push(svgEl('text', { 'class': 'tick y-tick', x: L - 6, y: (y(v) + 4).toFixed(1), 'text-anchor': 'end' }, number(v)));
    }
    var xstep = stepFor(t1 - t0, Math.max(2, Math.floor(w / 80)), TIME_STEPS);
    for (var t = Math.ceil(t0 / xstep) * xstep; t <= t1; t += xstep) {
      nodes.push(svgEl('line', { 'class': 'x-tickmark', x1: x(t).toFixed(1), x2: x(t).toFixed(1), y1: T + h, y2: T + h + 4 }));
      // A label at either end of the axis is anchored inward, so it stays inside the panel.
      var anchor = x(t) > L + w - 30 ? 'end' : x(t) < L + 30 ? 'start' : 'middle';
      nodes.push(svgEl('text', { 'class': 'tick x-tick', x: x(t).toFixed(1), y: height - 4, 'text-anchor': anchor },
        clock(t, xstep < 60000)));
    }
    nodes.push(svgEl('line', { 'class': 'axis x-axis', x1: L, x2: L + w, y1: T + h, y2: T + h }));
    nodes.push(svgEl('line', { 'class': 'axis y-axis', x1: L, x2: L, y1: T, y2: T + h }));
    panel.series.forEach(function (s, n) {
      var d = '', last = null, drawn = 0;
      shown.forEach(function (p) {
        var v = p.v ? p.v[s] : null;
        if (v == null) { last = null; return; }
        d += (last == null || p.at - last > 2000 ? 'M' : 'L') + x(p.at).toFixed(1) + ',' + y(v).toFixed(1) + ' ';
        last = p.at;
        drawn++;
      });
      nodes.push(svgEl('path', { 'class': 'series series-' + n, 'data-series': s, 'data-drawn': drawn, d: d.trim() }));
    });
    if (!known && panel.empty) {
      nodes.push(svgEl('text', { 'class': 'no-data', x: L + w / 2, y: T + h / 2, 'text-anchor': 'middle' }, panel.empty));
    }
    svg.replaceChildren.apply(svg, nodes);
    svg.setAttribute('data-max', ymax);
    // The legend: each series with its latest value.
    var latest = shown.length ? shown[shown.length - 1].v : null;
    box.querySelectorAll('[data-latest]').forEach(function (el) {
      var v = latest ? latest[el.getAttribute('data-latest')] : null;
      show(el, v == null ? null : number(v));
    });
  }
  window.addEventListener('resize', function () { drawChart(); });
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
    var slot = e.target.closest('ul.slots button.slot'); // only who may act gets buttons
    if (!slot) { return; }
    var origin = slot.closest('article.origin').getAttribute('data-origin');
    openSlot(origin, slot.getAttribute('data-index'));
  });

  function openSlot(origin, index) {
    fetch(base + '/origins/' + encodeURIComponent(origin) + '/slots/' + index + query,
      { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) {
        return r.json().catch(function () { return null; }).then(function (j) { return { ok: r.ok && j, status: r.status, body: j }; });
      })
      .then(function (r) {
        var dialog = document.getElementById('slot-dialog');
        var dl = document.getElementById('slot-detail');
        var stack = document.getElementById('slot-stack');
        show(document.getElementById('slot-title'), origin + ' · slot ' + index);
        // The slot as /actuator/pool/{origin} shows it; its holder only for who may see holders, else null.
        var slot = r.body, holder = r.ok ? slot.holder : null;
        var rows = r.ok ? [
          ['state', cell(slot).label], ['borrows', slot.borrowCount], ['age', age(slot.ageMillis)],
          ['idle', age(slot.idleMillis)], ['held', age(slot.heldMillis)],
          ['holder thread', holder ? holder.thread : null], ['labels', holder ? labels(holder.labels) : null]
        ] : [['refused', 'HTTP ' + r.status + (r.body && r.body.message ? ': ' + r.body.message : '')]];
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

  // A duration in the units a reader counts in: 850 ms, 12.4 s, 2 min 9 s, 1 h 3 min; a negative one is not known.
  function age(v) {
    if (v == null || v < 0) { return '—'; }
    if (v < 1000) { return v + ' ms'; }
    var s = Math.floor(v / 1000);
    if (s < 60) { return (Math.round(v / 100) / 10) + ' s'; }
    if (s < 3600) { return Math.floor(s / 60) + ' min ' + (s % 60) + ' s'; }
    return Math.floor(s / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min';
  }
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
      form.querySelectorAll('input[name="weights"],input[name="to"],input[name="timeout"],input[name="limit"]:not([type="hidden"])').forEach(function (extra) {
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
            // An action that changed nothing (a mark up of an UP origin) is told apart from one that did.
            var noop = r.ok && /^nothing changed/.test(r.body.outcome);
            outcome.className = 'outcome ' + (noop ? 'outcome-noop' : r.ok ? 'outcome-ok' : 'outcome-error');
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

  document.querySelectorAll('#events time[datetime]').forEach(function (el) { when(el, el.getAttribute('datetime'), true); });
  document.querySelectorAll('time[data-pooler="readAt"][datetime]').forEach(function (el) { when(el, el.getAttribute('datetime'), false); });
  loadHistory();
  connect();
})();
