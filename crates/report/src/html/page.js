// The audit page: counts, the tables (sorted by a click on a column's
// heading, filtered, 100 rows a page) and the graph of one account-Region,
// all built from the JSON in #audit-data with DOM calls and textContent.
(function () {
  'use strict';
  var PAGE_ROWS = 100;
  var RANK = { error: 3, warning: 2, info: 1 };
  var data = JSON.parse(document.getElementById('audit-data').textContent);
  var summary = data.summary || {};
  var queues = data.queues || [], findings = data.findings || [], pairs = data.pairs || [];

  function byId(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function count(id, n) { var e = byId(id); e.textContent = String(n); e.setAttribute('data-count', String(n)); }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  byId('source').textContent = 'From ' + data.source + '.';
  count('count-queues', summary.queues || 0);
  count('count-account-regions', summary.account_regions === null || summary.account_regions === undefined ? pairs.length : summary.account_regions);
  count('count-errors', summary.errors || 0);
  count('count-warnings', summary.warnings || 0);
  count('count-infos', summary.infos || 0);
  count('count-findings', summary.findings || 0);
  count('count-unaudited', summary.unaudited || 0);
  if (!data.complete) {
    var note = byId('incomplete');
    note.hidden = false;
    note.textContent = 'Drawn from a JSON report, which names only the queues with findings: ' + queues.length + ' of the ' +
      plural(summary.queues || 0, 'queue') + ' audited are listed, and their dead-letter queues and consumers are not known.';
  }

  // What each row is searched and sorted by.
  var rulesOf = queues.map(function () { return {}; });
  findings.forEach(function (f) {
    var q = f.queue === null || f.queue === undefined ? null : queues[f.queue];
    f.queueName = f.label || (q ? q.name : f.resource);
    f.rank = RANK[f.severity] || 0;
    f.text = [f.rule, f.name, f.severity, f.message, f.resource, f.queueName, f.account, f.region].join('\n').toLowerCase();
    if (q) rulesOf[f.queue][f.rule] = true;
  });
  queues.forEach(function (q, i) {
    q.rules = rulesOf[i];
    q.worst = [q.errors, q.warnings, q.infos];
    q.consumersText = q.consumers ? q.consumers.join(', ') : null;
    q.text = [q.name, q.url, q.account, q.region, q.dlq || '', q.consumersText || ''].concat(Object.keys(q.rules)).join('\n').toLowerCase();
  });

  // The filter options: every rule, account and Region on the page.
  function options(id, values) {
    var select = byId(id);
    Object.keys(values).sort().forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
  }
  var rules = {}, accounts = {}, regions = {};
  findings.forEach(function (f) { rules[f.rule] = true; });
  pairs.forEach(function (p) { accounts[p.account] = true; regions[p.region] = true; });
  options('filter-rule', rules); options('filter-account', accounts); options('filter-region', regions);

  var filter = { text: '', severity: '', rule: '', account: '', region: '' };
  function where(row) {
    return (!filter.account || row.account === filter.account) && (!filter.region || row.region === filter.region);
  }
  function queuePasses(q) {
    return where(q) && (!filter.text || q.text.indexOf(filter.text) >= 0) &&
      (!filter.severity || q[filter.severity + 's'] > 0) && (!filter.rule || q.rules[filter.rule] === true);
  }
  function findingPasses(f) {
    return where(f) && (!filter.text || f.text.indexOf(filter.text) >= 0) &&
      (!filter.severity || f.severity === filter.severity) && (!filter.rule || f.rule === filter.rule);
  }
  // The account-Regions of the queues the filters leave (set in changed()).
  var pairsShown = {};
  function pairPasses(p) {
    var narrowed = filter.text || filter.severity || filter.rule;
    return where(p) && (!narrowed || pairsShown[p.account + '\n' + p.region] === true ||
      (!filter.severity && !filter.rule && (p.account + '\n' + p.region).toLowerCase().indexOf(filter.text) >= 0));
  }

  function compare(a, b) {
    if (Array.isArray(a)) {
      for (var i = 0; i < a.length; i++) { var c = compare(a[i], b[i]); if (c) return c; }
      return 0;
    }
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }

  // A sortable, paged table of `rows`; `cells(row, tr)` fills a row.
  function Table(id, rows, passes, cells, keyOf) {
    var table = byId(id), body = table.tBodies[0], pager = byId(id.replace('-table', '-pager'));
    var self = { page: 1, sort: null, dir: 1, shown: rows };
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th) {
      th.addEventListener('click', function () {
        var key = th.getAttribute('data-key');
        // Numbers (counts, severity) sort largest first on the first click.
        var numeric = th.classList.contains('num') || key === 'severity';
        self.dir = self.sort === key ? -self.dir : (numeric ? -1 : 1);
        self.sort = key;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', self.dir > 0 ? 'ascending' : 'descending');
        self.update();
      });
    });
    self.update = function () {
      var shown = rows.filter(passes);
      if (self.sort) {
        var key = self.sort, dir = self.dir;
        var keyed = shown.map(function (r, i) { return { r: r, k: keyOf(r, key), i: i }; });
        keyed.sort(function (a, b) { return dir * compare(a.k, b.k) || a.i - b.i; });
        shown = keyed.map(function (x) { return x.r; });
      }
      self.shown = shown;
      var pages = Math.max(1, Math.ceil(shown.length / PAGE_ROWS));
      self.page = Math.min(Math.max(1, self.page), pages);
      self.render(pages);
    };
    self.render = function (pages) {
      var from = (self.page - 1) * PAGE_ROWS, rowsHere = self.shown.slice(from, from + PAGE_ROWS);
      var fresh = document.createElement('tbody');
      rowsHere.forEach(function (r) { var tr = document.createElement('tr'); cells(r, tr); fresh.appendChild(tr); });
      table.replaceChild(fresh, body);
      body = fresh;
      while (pager.firstChild) pager.removeChild(pager.firstChild);
      pager.setAttribute('data-page', String(self.page));
      pager.setAttribute('data-pages', String(pages));
      pager.setAttribute('data-rows', String(self.shown.length));
      var prev = el('button', 'prev', '\u2039 Previous'), next = el('button', 'next', 'Next \u203a');
      prev.type = next.type = 'button';
      prev.disabled = self.page <= 1; next.disabled = self.page >= pages;
      prev.addEventListener('click', function () { self.page--; self.render(pages); });
      next.addEventListener('click', function () { self.page++; self.render(pages); });
      var what = self.shown.length ? 'Rows ' + (from + 1) + '\u2013' + (from + rowsHere.length) + ' of ' + self.shown.length : 'No rows';
      pager.appendChild(prev);
      pager.appendChild(el('span', 'where', 'Page ' + self.page + ' of ' + pages + ' \u00b7 ' + what + ' (of ' + rows.length + ')'));
      pager.appendChild(next);
    };
    return self;
  }

  function td(tr, text, cls) { var c = el('td', cls || '', text); tr.appendChild(c); return c; }
  function severityCell(tr, severity) { var c = el('td'); c.appendChild(el('span', 'sev ' + severity, severity)); tr.appendChild(c); }
  function unknown(v, shown) { return v === null || v === undefined ? '?' : shown(v); }
  function plainKey(r, key) { return r[key]; }

  var pairTable = Table('pairs-table', pairs, pairPasses, function (p, tr) {
    tr.className = p.unaudited ? 'error' : (p.errors ? 'error' : (p.warnings ? 'warning' : ''));
    td(tr, p.account); td(tr, p.region); td(tr, p.queues, 'num');
    td(tr, p.errors, 'num'); td(tr, p.warnings, 'num'); td(tr, p.infos, 'num');
    td(tr, p.unaudited ? 'not in full' : 'yes');
  }, plainKey);

  var queueTable = Table('queues-table', queues, queuePasses, function (q, tr) {
    tr.className = q.errors ? 'error' : (q.warnings ? 'warning' : '');
    var name = el('td', 'queue');
    var link = el('button', 'link', q.name);
    link.type = 'button';
    link.title = q.url + '\nShow only this queue';
    link.addEventListener('click', function () { byId('filter-text').value = q.name; changed(); });
    name.appendChild(link);
    tr.appendChild(name);
    td(tr, q.account); td(tr, q.region);
    td(tr, unknown(q.fifo, function (v) { return v ? 'yes' : 'no'; }));
    td(tr, q.dlq === null ? (q.consumers === null ? '?' : 'none') : q.dlq, q.dlq === null ? 'muted' : '');
    td(tr, unknown(q.consumersText, function (v) { return v || 'none'; }), q.consumersText ? '' : 'muted');
    var total = el('td', 'num');
    [['error', q.errors], ['warning', q.warnings], ['info', q.infos]].forEach(function (s) {
      if (s[1]) { total.appendChild(el('span', 'sev ' + s[0], s[1])); total.appendChild(document.createTextNode(' ')); }
    });
    if (!total.firstChild) total.textContent = '0';
    tr.appendChild(total);
    td(tr, q.errors, 'num'); td(tr, q.warnings, 'num'); td(tr, q.infos, 'num');
  }, function (q, key) { return key === 'consumers' ? q.consumersText : key === 'fifo' ? (q.fifo === null ? null : String(q.fifo)) : q[key]; });

  var findingTable = Table('findings-table', findings, findingPasses, function (f, tr) {
    tr.className = f.severity;
    severityCell(tr, f.severity);
    var rule = td(tr, f.rule);
    rule.title = f.name;
    td(tr, f.queueName, f.queue === null && !f.label ? 'url' : '').title = f.resource;
    td(tr, f.account); td(tr, f.region);
    td(tr, f.message, 'msg').title = 'Fix: ' + f.fix;
  }, function (f, key) { return key === 'severity' ? f.rank : f[key]; });

  // What was not audited, and the notes.
  var gaps = data.unaudited || [];
  if (gaps.length) {
    byId('unaudited-none').hidden = true;
    var table = byId('unaudited-table');
    table.hidden = false;
    gaps.forEach(function (u) {
      var tr = document.createElement('tr');
      tr.className = 'error';
      td(tr, u.account === null || u.account === undefined ? '(the credentials\' own)' : u.account);
      td(tr, u.region); td(tr, u.partial ? 'in part' : 'not at all'); td(tr, u.reason, 'msg');
      td(tr, (u.rules || []).join(', '));
      table.tBodies[0].appendChild(tr);
    });
  }
  // `none`: what an empty list says, or nothing at all.
  function noteList(id, items, none) {
    var list = byId(id);
    items.forEach(function (text) { list.appendChild(el('li', '', text)); });
    if (!items.length && none) list.appendChild(el('li', 'muted', none));
  }
  noteList('notes', (data.notes || []).map(function (n) {
    return (n.account !== '-' || n.region !== '-' ? 'account ' + n.account + ' in ' + n.region + ': ' : '') + n.message;
  }), 'None.');
  noteList('graph-notes', ((data.graph && data.graph.notes) || []).map(function (n) { return 'Graph: ' + n; }));

  // The graph: one account-Region, its queues as the filters leave them.
  var graph = data.graph || { nodes: [], edges: [] };
  var scopeSelect = byId('graph-scope');
  SqsguardGraph.scopes(graph).forEach(function (s) {
    var o = el('option', '', s.scope + ' (' + plural(s.nodes.length, 'node') + ')');
    o.value = s.scope;
    scopeSelect.appendChild(o);
  });
  function drawGraph() {
    var box = byId('graph'), note = byId('graph-note');
    if (!scopeSelect.options.length) { note.textContent = 'Nothing to draw.'; return; }
    var active = filter.text || filter.severity || filter.rule || filter.account || filter.region;
    var urls = null;
    if (active) {
      urls = {};
      queueTable.shown.forEach(function (q) { urls[q.url] = true; });
    }
    var keep = urls === null ? null : function (n) { return urls[n.name] === true || urls[(n.details || [])[0]] === true; };
    var drawn = SqsguardGraph.draw(graph, scopeSelect.value, box, keep);
    note.textContent = 'Drawn: ' + plural(drawn.nodes, 'node') + ' and ' + plural(drawn.edges, 'edge') +
      (active ? ', for the queues the filters leave and what they link to' : '') +
      (drawn.capped ? '; at most ' + SqsguardGraph.MAX_NODES + ' nodes are drawn at once: filter to see others' : '') + '.';
    box.setAttribute('data-nodes', String(drawn.nodes));
  }
  scopeSelect.addEventListener('change', drawGraph);

  function changed() {
    filter.text = byId('filter-text').value.trim().toLowerCase();
    ['severity', 'rule', 'account', 'region'].forEach(function (k) { filter[k] = byId('filter-' + k).value; });
    [queueTable, findingTable].forEach(function (t) { t.page = 1; t.update(); });
    pairsShown = {};
    queueTable.shown.forEach(function (q) { pairsShown[q.account + '\n' + q.region] = true; });
    pairTable.page = 1;
    pairTable.update();
    // The graph follows the account-Region filter when it names one.
    if (filter.account && filter.region) {
      var want = 'account ' + filter.account + ' in ' + filter.region;
      for (var i = 0; i < scopeSelect.options.length; i++) if (scopeSelect.options[i].value === want) scopeSelect.selectedIndex = i;
    }
    drawGraph();
  }
  byId('filter-text').addEventListener('input', changed);
  ['severity', 'rule', 'account', 'region'].forEach(function (k) { byId('filter-' + k).addEventListener('change', changed); });
  byId('filter-clear').addEventListener('click', function () {
    byId('filter-text').value = '';
    ['severity', 'rule', 'account', 'region'].forEach(function (k) { byId('filter-' + k).value = ''; });
    changed();
  });
  changed();
  document.body.setAttribute('data-ready', 'true');
})();
