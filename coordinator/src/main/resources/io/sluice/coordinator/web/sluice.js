// Sluice web UI: renders the monitoring API's JSON (/api/v1, docs/monitoring.md) as the cluster,
// query and stage pages. Plain DOM calls only: every value from the server goes in as text, never
// as markup. When a page is drawn, <body data-ready="cluster|query|stage"> says so (tests wait on it).
(function () {
  'use strict';

  const API = '/api/v1';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const main = document.getElementById('main');
  let timer = null;
  // the stage page's sort order survives its refreshes
  let taskSort = { key: 'partition', descending: false };

  // ---- DOM helpers -------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttributes(node, attrs);
    append(node, children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttributes(node, attrs);
    append(node, children);
    return node;
  }

  function setAttributes(node, attrs) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, String(value));
      }
    }
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined) {
        continue;
      }
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }
  }

  function link(href, text) {
    return el('a', { href: href }, text);
  }

  function badge(state) {
    return el('span', { class: 'state state-' + (state || 'UNKNOWN') }, state || '?');
  }

  // ---- formatting --------------------------------------------------------------------------

  function num(n) {
    return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US');
  }

  function bytes(n) {
    if (n === null || n === undefined) {
      return '–';
    }
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = Number(n);
    let unit = 0;
    while (Math.abs(value) >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : 1)) + ' ' + units[unit];
  }

  function millis(ms) {
    if (ms === null || ms === undefined) {
      return '–';
    }
    if (ms < 1000) {
      return ms + ' ms';
    }
    if (ms < 60000) {
      return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    }
    const minutes = Math.floor(ms / 60000);
    return minutes + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
  }

  function time(epochMs) {
    if (epochMs === null || epochMs === undefined) {
      return '–';
    }
    const d = new Date(epochMs);
    const pad = (v, n) => String(v).padStart(n || 2, '0');
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' '
        + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()) + '.' + pad(d.getMilliseconds(), 3);
  }

  function ago(epochMs) {
    if (epochMs === null || epochMs === undefined) {
      return '–';
    }
    return millis(Math.max(0, Date.now() - epochMs)) + ' ago';
  }

  function queryDuration(q) {
    if (q.durationMs !== null && q.durationMs !== undefined) {
      return q.durationMs;
    }
    return q.startTime ? (q.endTime || Date.now()) - q.startTime : null;
  }

  function taskDuration(t) {
    if (t.durationMs !== null && t.durationMs !== undefined) {
      return t.durationMs;
    }
    return t.launchTime ? (t.endTime || Date.now()) - t.launchTime : null;
  }

  function shorten(text, max) {
    if (!text) {
      return '';
    }
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > max ? line.slice(0, max - 1) + '…' : line;
  }

  // ---- the API -----------------------------------------------------------------------------

  async function api(path, options) {
    const response = await fetch(API + path, Object.assign({ credentials: 'same-origin',
      headers: { Accept: 'application/json' } }, options || {}));
    if (response.status === 401) {
      location.assign('/login?next=' + encodeURIComponent(location.pathname));
      throw new Error('the session ended: log in again');
    }
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      throw new Error((body && body.error) || (response.status + ' ' + response.statusText + ' from ' + API + path));
    }
    return body;
  }

  // ---- tables ------------------------------------------------------------------------------

  // columns: [{ title, value(row) → text or node, sortKey(row) → comparable, numeric }]
  function table(id, columns, rows, empty, sort, onSort) {
    const head = el('tr', {}, columns.map(c => {
      const sorted = sort && sort.key === c.key;
      const th = el('th', {
        class: (c.numeric ? 'num ' : '') + (onSort ? 'sortable' : ''),
        'data-key': c.key,
        'aria-sort': sorted ? (sort.descending ? 'descending' : 'ascending') : null
      }, c.title, sorted ? (sort.descending ? ' ▼' : ' ▲') : '');
      if (onSort) {
        th.addEventListener('click', () => onSort(c.key));
      }
      return th;
    }));
    let shown = rows.slice();
    if (sort) {
      const column = columns.find(c => c.key === sort.key);
      if (column) {
        const key = column.sortKey || column.value;
        shown.sort((a, b) => compare(key(a), key(b)) * (sort.descending ? -1 : 1));
      }
    }
    const body = el('tbody', {}, shown.map(row => el('tr', {}, columns.map(c =>
      el('td', { class: c.numeric ? 'num' : null }, c.value(row))))));
    if (!shown.length) {
      body.appendChild(el('tr', { class: 'empty' }, el('td', { colspan: columns.length }, empty)));
    }
    return el('table', { id: id }, el('thead', {}, head), body);
  }

  function compare(a, b) {
    const missing = v => v === null || v === undefined || v === '';
    if (missing(a) || missing(b)) {
      return missing(a) === missing(b) ? 0 : (missing(a) ? 1 : -1);
    }
    if (typeof a === 'number' && typeof b === 'number') {
      return a - b;
    }
    return String(a).localeCompare(String(b), 'en', { numeric: true });
  }

  // ---- the cluster page --------------------------------------------------------------------

  // The columns of a table of queries, on the cluster and history pages.
  function queryColumns() {
    return [
      { key: 'id', title: 'Query', value: q => link('/ui/queries/' + encodeURIComponent(q.id), q.id) },
      { key: 'state', title: 'State', value: q => badge(q.state) },
      { key: 'startTime', title: 'Started', value: q => time(q.startTime) },
      { key: 'duration', title: 'Duration', numeric: true, value: q => millis(queryDuration(q)) },
      { key: 'rows', title: 'Rows', numeric: true, value: q => num(q.rows) },
      { key: 'sql', title: 'SQL', value: q => el('span', { class: 'sql', title: q.sql || '' }, shorten(q.sql, 120)) },
      { key: 'error', title: 'Error', value: q => q.error ? el('span', { class: 'error' }, q.error) : '' }
    ];
  }

  // What serves this UI: 'coordinator' (a live cluster) or 'history' (event logs replayed, no cluster).
  let serverKind = null;

  async function kindOfServer() {
    if (serverKind === null) {
      serverKind = (await api('/server')).kind;
    }
    return serverKind;
  }

  async function clusterPage() {
    if (await kindOfServer() === 'history') {
      return historyPage();
    }
    const [workers, queries] = await Promise.all([api('/workers'), api('/queries')]);
    const running = queries.filter(q => q.state === 'RUNNING');
    const finished = queries.filter(q => q.state !== 'RUNNING');
    const columns = queryColumns();
    const busy = workers.reduce((sum, w) => sum + (w.busySlots || 0), 0);
    const slots = workers.reduce((sum, w) => sum + (w.slots || 0), 0);
    render('cluster',
      el('h1', {}, 'Cluster'),
      el('p', { class: 'muted' }, workers.length + ' workers, ' + busy + ' of ' + slots + ' slots busy, '
          + running.length + ' queries running'),
      el('h2', {}, 'Workers'),
      table('workers', [
        { key: 'address', title: 'Address', value: w => w.address },
        { key: 'state', title: 'State', value: w => badge(w.state) },
        { key: 'slots', title: 'Slots', numeric: true, value: w => num(w.slots) },
        { key: 'busySlots', title: 'Busy slots', numeric: true, value: w => num(w.busySlots) },
        { key: 'memory', title: 'Memory used / limit', numeric: true,
          value: w => bytes(w.memoryUsedBytes) + ' / ' + bytes(w.memoryLimitBytes) },
        { key: 'shuffle', title: 'Shuffle bytes held', numeric: true, value: w => bytes(w.shuffleBytesHeld) },
        { key: 'heartbeat', title: 'Last heartbeat', value: w => ago(w.lastHeartbeat) }
      ], workers, 'No workers have joined.'),
      el('h2', {}, 'Running queries'),
      table('running', columns.filter(c => c.key !== 'rows' && c.key !== 'error'), running, 'None.'),
      el('h2', {}, 'Finished queries'),
      table('finished', columns, finished, 'None yet.'));
    return 2000;
  }

  // The history server's first page: the replayed queries; no workers, since no cluster runs.
  async function historyPage() {
    const queries = await api('/queries');
    const unfinished = queries.filter(q => q.state === 'RUNNING');
    const finished = queries.filter(q => q.state !== 'RUNNING');
    render('cluster',
      el('h1', {}, 'History'),
      el('p', { class: 'muted' }, queries.length + ' queries replayed from event logs; no cluster runs behind this page.'),
      el('h2', {}, 'Finished queries'),
      table('finished', queryColumns(), finished, 'None.'),
      el('h2', {}, 'Unfinished (the log ends before the query did)'),
      table('unfinished', queryColumns().filter(c => c.key !== 'rows' && c.key !== 'error'), unfinished, 'None.'));
    return null;
  }

  // ---- the query page ----------------------------------------------------------------------

  async function queryPage(id) {
    const q = await api('/queries/' + encodeURIComponent(id));
    const stages = q.stages || [];
    const running = q.state === 'RUNNING';
    render('query',
      el('h1', {}, 'Query ', el('span', { id: 'query-id' }, q.id), ' ', badge(q.state),
        running ? cancelButton(q.id) : null),
      el('p', { class: 'muted', id: 'cancel-result' }),
      facts([
        ['Started', time(q.startTime)],
        ['Ended', time(q.endTime)],
        ['Duration', millis(queryDuration(q))],
        ['Rows', num(q.rows)],
        ['Stages', String(stages.length)]
      ]),
      q.error ? el('pre', { class: 'error', id: 'query-error' }, q.error) : null,
      el('h2', {}, 'SQL'),
      el('pre', { id: 'sql', class: 'sql' }, q.sql || '(a DataFrame plan: no SQL text)'),
      el('h2', {}, 'Stages'),
      dag(q),
      table('stages', [
        { key: 'id', title: 'Stage', value: s => link(stageHref(q.id, s.id), 'Stage ' + s.id), sortKey: s => s.id },
        { key: 'state', title: 'State', value: s => badge(s.state) },
        { key: 'tasks', title: 'Tasks done / all', numeric: true, value: s => num(s.tasksCompleted) + ' / ' + num(s.tasks) },
        { key: 'running', title: 'Running', numeric: true, value: s => num(s.tasksRunning) },
        { key: 'failed', title: 'Failed attempts', numeric: true,
          value: s => s.tasksFailed ? el('span', { class: 'error' }, num(s.tasksFailed)) : num(s.tasksFailed) },
        { key: 'inputRows', title: 'Input rows', numeric: true, value: s => num(s.inputRows) },
        { key: 'rows', title: 'Output rows', numeric: true, value: s => num(s.rows) },
        { key: 'bytes', title: 'Bytes written', numeric: true, value: s => bytes(s.bytes) },
        { key: 'spill', title: 'Spilled', numeric: true, value: s => bytes(s.spillBytes) },
        { key: 'duration', title: 'Duration', numeric: true,
          value: s => s.startTime ? millis((s.endTime || Date.now()) - s.startTime) : '–' }
      ], stages, 'No stages (the query did not reach the scheduler).', { key: 'id', descending: false }),
      el('h2', {}, 'Plan'),
      el('pre', { id: 'plan', class: 'plan' }, q.plan || '(no plan recorded)'));
    return running ? 1000 : null;
  }

  function stageHref(queryId, stageId) {
    return '/ui/queries/' + encodeURIComponent(queryId) + '/stages/' + encodeURIComponent(stageId);
  }

  function cancelButton(id) {
    const button = el('button', { id: 'cancel', class: 'danger', type: 'button' }, 'Cancel query');
    button.addEventListener('click', async () => {
      button.disabled = true;
      const result = document.getElementById('cancel-result');
      try {
        await api('/queries/' + encodeURIComponent(id) + '/cancel',
          { method: 'POST', headers: { Accept: 'application/json', 'X-Sluice-UI': '1' } });
        result.textContent = 'Cancel requested.';
      } catch (e) {
        result.textContent = 'Cancel failed: ' + e.message;
        button.disabled = false;
      }
    });
    return button;
  }

  function facts(pairs) {
    return el('dl', { class: 'facts' }, pairs.map(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]));
  }

  // The stage DAG, left to right: a stage's column is the longest path from a stage without inputs;
  // each stage a box listing its operators, each exchange an arrow labelled with what it moved.
  const BOX_WIDTH = 300;
  const LINE = 15;
  const GAP_X = 170;
  const GAP_Y = 24;

  function dag(q) {
    const stages = q.stages || [];
    const byId = new Map(stages.map(s => [s.id, s]));
    const level = new Map();
    const levelOf = (id, depth) => {
      if (level.has(id)) {
        return level.get(id);
      }
      const stage = byId.get(id);
      let l = 0;
      if (depth < stages.length) {
        for (const parent of (stage.parents || [])) {
          if (byId.has(parent)) {
            l = Math.max(l, levelOf(parent, depth + 1) + 1);
          }
        }
      }
      level.set(id, l);
      return l;
    };
    stages.forEach(s => levelOf(s.id, 0));
    const columns = [];
    stages.slice().sort((a, b) => a.id - b.id).forEach(s => {
      const l = level.get(s.id);
      (columns[l] = columns[l] || []).push(s);
    });
    const boxes = new Map();
    let height = 0;
    columns.forEach((column, l) => {
      let y = 20;
      (column || []).forEach(s => {
        const h = 46 + LINE * Math.max(1, (s.operators || []).length) + 8;
        boxes.set(s.id, { x: 20 + l * (BOX_WIDTH + GAP_X), y: y, h: h });
        y += h + GAP_Y;
      });
      height = Math.max(height, y);
    });
    const width = 40 + columns.length * BOX_WIDTH + Math.max(0, columns.length - 1) * GAP_X;
    const root = svg('svg', { id: 'dag', class: 'dag', width: Math.max(width, 200), height: Math.max(height, 60),
      viewBox: '0 0 ' + Math.max(width, 200) + ' ' + Math.max(height, 60), role: 'img',
      'aria-label': 'stage DAG of query ' + q.id });
    root.appendChild(svg('defs', {}, svg('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 10, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }))));
    // edges: every parent link, labelled by its exchange when the API reports one
    const exchanges = new Map((q.exchanges || []).map(e => [e.fromStage + '>' + e.toStage, e]));
    const edges = new Map();
    stages.forEach(s => (s.parents || []).forEach(p => edges.set(p + '>' + s.id, { from: p, to: s.id })));
    (q.exchanges || []).forEach(e => edges.set(e.fromStage + '>' + e.toStage, { from: e.fromStage, to: e.toStage }));
    for (const [key, edge] of edges) {
      const from = boxes.get(edge.from);
      const to = boxes.get(edge.to);
      if (!from || !to) {
        continue;
      }
      const x1 = from.x + BOX_WIDTH;
      const y1 = from.y + from.h / 2;
      const x2 = to.x;
      const y2 = to.y + to.h / 2;
      const bend = Math.max(40, (x2 - x1) / 2);
      const exchange = exchanges.get(key);
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      root.appendChild(svg('g', { class: 'exchange', 'data-from': edge.from, 'data-to': edge.to },
        svg('path', { d: 'M ' + x1 + ' ' + y1 + ' C ' + (x1 + bend) + ' ' + y1 + ', ' + (x2 - bend) + ' ' + y2 + ', '
            + x2 + ' ' + y2, 'marker-end': 'url(#arrowhead)' }),
        exchange ? svg('text', { x: mx, y: my - 18, 'text-anchor': 'middle', class: 'rows' }, num(exchange.rows) + ' rows')
          : null,
        exchange ? svg('text', { x: mx, y: my - 5, 'text-anchor': 'middle', class: 'bytes' },
          bytes(exchange.bytes) + (exchange.kind ? ' · ' + exchange.kind : '')) : null));
    }
    stages.forEach(s => {
      const box = boxes.get(s.id);
      const operators = s.operators || [];
      const done = s.tasks ? Math.min(1, (s.tasksCompleted || 0) / s.tasks) : 0;
      const lines = operators.map((op, i) => svg('text', { x: box.x + 10, y: box.y + 40 + i * LINE, class: 'operator' },
        svg('title', {}, op), shorten(op, 40)));
      root.appendChild(svg('g', { class: 'stage state-' + (s.state || 'UNKNOWN'), id: 'stage-' + s.id,
        'data-stage': s.id },
        svg('a', { href: stageHref(q.id, s.id) },
          svg('rect', { x: box.x, y: box.y, width: BOX_WIDTH, height: box.h, rx: 6, class: 'box' }),
          svg('rect', { x: box.x, y: box.y + box.h - 4, width: Math.round(BOX_WIDTH * done), height: 4,
            class: 'progress' }),
          svg('text', { x: box.x + 10, y: box.y + 18, class: 'title' }, 'Stage ' + s.id + ' · ' + (s.state || '?')),
          svg('text', { x: box.x + BOX_WIDTH - 10, y: box.y + 18, class: 'tasks', 'text-anchor': 'end' },
            num(s.tasksCompleted) + '/' + num(s.tasks) + ' tasks'),
          lines,
          svg('text', { x: box.x + 10, y: box.y + box.h - 12, class: 'footer' },
            num(s.rows) + ' rows · ' + bytes(s.bytes) + (s.spillBytes ? ' · spilled ' + bytes(s.spillBytes) : '')))));
    });
    return el('div', { class: 'dag-frame' }, root);
  }

  // ---- the stage page ----------------------------------------------------------------------

  const TASK_METRICS = [
    { key: 'duration', title: 'Duration', format: millis, value: taskDuration },
    { key: 'rows', title: 'Rows', format: num, value: t => t.rows },
    { key: 'bytesRead', title: 'Bytes read', format: bytes, value: t => t.bytesRead },
    { key: 'bytesWritten', title: 'Bytes written', format: bytes, value: t => t.bytesWritten },
    { key: 'shuffleFetchWaitMs', title: 'Shuffle fetch wait', format: millis, value: t => t.shuffleFetchWaitMs },
    { key: 'spillBytes', title: 'Spilled', format: bytes, value: t => t.spillBytes },
    { key: 'gcTimeMs', title: 'GC time', format: millis, value: t => t.gcTimeMs }
  ];

  async function stagePage(queryId, stageId) {
    const [q, tasks] = await Promise.all([api('/queries/' + encodeURIComponent(queryId)),
      api('/queries/' + encodeURIComponent(queryId) + '/stages/' + encodeURIComponent(stageId) + '/tasks')]);
    const stage = (q.stages || []).find(s => String(s.id) === String(stageId));
    if (!stage) {
      throw new Error('query ' + queryId + ' has no stage ' + stageId);
    }
    const failed = tasks.filter(t => t.error);
    const onSort = key => {
      taskSort = { key: key, descending: taskSort.key === key ? !taskSort.descending : false };
      refresh();
    };
    render('stage',
      el('h1', {}, 'Stage ' + stage.id + ' of query ', link('/ui/queries/' + encodeURIComponent(q.id), q.id), ' ',
        badge(stage.state)),
      el('p', { class: 'operators' }, (stage.operators || []).join(' → ')),
      facts([
        ['Tasks', num(stage.tasksCompleted) + ' done of ' + num(stage.tasks) + ', ' + num(stage.tasksRunning)
            + ' running, ' + num(stage.tasksFailed) + ' failed attempts'],
        ['Input rows', num(stage.inputRows)],
        ['Output rows', num(stage.rows)],
        ['Bytes written', bytes(stage.bytes)],
        ['Spilled', bytes(stage.spillBytes)],
        ['Reads from stages', (stage.parents || []).join(', ') || 'none (reads files)']
      ]),
      el('h2', {}, 'Skew: min / median / max over tasks'),
      summary(tasks),
      el('h2', {}, 'Timeline'),
      timeline(tasks),
      failed.length ? [el('h2', {}, 'Errors'), el('ul', { id: 'task-errors', class: 'error' },
        failed.map(t => el('li', {}, 'partition ' + t.partition + ' attempt ' + t.attempt
            + (t.worker ? ' on ' + t.worker : '') + ': ' + t.error)))] : null,
      el('h2', {}, 'Tasks (every attempt)'),
      table('tasks', [
        { key: 'partition', title: 'Partition', numeric: true, value: t => num(t.partition), sortKey: t => t.partition },
        { key: 'attempt', title: 'Attempt', numeric: true, value: t => num(t.attempt), sortKey: t => t.attempt },
        { key: 'worker', title: 'Worker', value: t => t.worker || '–', sortKey: t => t.worker },
        { key: 'state', title: 'State', value: t => badge(t.state), sortKey: t => t.state },
        { key: 'launchTime', title: 'Launched', value: t => time(t.launchTime), sortKey: t => t.launchTime }
      ].concat(TASK_METRICS.map(m => ({ key: m.key, title: m.title, numeric: true, value: t => m.format(m.value(t)),
        sortKey: m.value }))).concat([
        { key: 'error', title: 'Error', value: t => t.error ? el('span', { class: 'error' }, t.error) : '',
          sortKey: t => t.error }
      ]), tasks, 'No task has started.', taskSort, onSort));
    return q.state === 'RUNNING' ? 1000 : null;
  }

  // min / median / max of each metric over the finished attempts (all attempts while none finished)
  function summary(tasks) {
    const finished = tasks.filter(t => t.state === 'FINISHED');
    const sample = finished.length ? finished : tasks;
    const rows = TASK_METRICS.map(m => {
      const values = sample.map(m.value).filter(v => v !== null && v !== undefined).sort((a, b) => a - b);
      const at = f => values.length ? values[Math.min(values.length - 1, Math.floor(f * values.length))] : null;
      const median = values.length
        ? (values.length % 2 ? values[(values.length - 1) / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2)
        : null;
      return { metric: m, min: at(0), median: median, max: values.length ? values[values.length - 1] : null };
    });
    return table('summary', [
      { key: 'metric', title: 'Metric (' + sample.length + ' attempts)', value: r => r.metric.title },
      { key: 'min', title: 'Min', numeric: true, value: r => r.metric.format(r.min) },
      { key: 'median', title: 'Median', numeric: true, value: r => r.metric.format(r.median) },
      { key: 'max', title: 'Max', numeric: true, value: r => r.metric.format(r.max) }
    ], rows, 'No tasks.');
  }

  // one bar per attempt, from its launch to its end (now while it runs), lanes ordered by launch
  const TIMELINE_WIDTH = 900;
  const LANE = 16;
  const MAX_LANES = 2000;

  function timeline(tasks) {
    const launched = tasks.filter(t => t.launchTime).sort((a, b) => a.launchTime - b.launchTime || a.partition - b.partition)
      .slice(0, MAX_LANES);
    if (!launched.length) {
      return el('p', { class: 'muted', id: 'timeline-empty' }, 'No task has been launched.');
    }
    const now = Date.now();
    const start = launched[0].launchTime;
    const end = Math.max(...launched.map(t => t.endTime || now));
    const span = Math.max(1, end - start);
    const left = 150;
    const scale = v => left + (v - start) / span * (TIMELINE_WIDTH - left - 20);
    const height = 30 + launched.length * LANE;
    const root = svg('svg', { id: 'timeline', class: 'timeline', width: TIMELINE_WIDTH, height: height,
      viewBox: '0 0 ' + TIMELINE_WIDTH + ' ' + height });
    root.appendChild(svg('text', { x: left, y: 12, class: 'axis' }, '0'));
    root.appendChild(svg('text', { x: TIMELINE_WIDTH - 20, y: 12, class: 'axis', 'text-anchor': 'end' }, millis(span)));
    launched.forEach((t, i) => {
      const y = 22 + i * LANE;
      const x1 = scale(t.launchTime);
      const x2 = Math.max(x1 + 2, scale(t.endTime || now));
      root.appendChild(svg('g', { class: 'task state-' + t.state, 'data-partition': t.partition, 'data-attempt': t.attempt },
        svg('text', { x: 4, y: y + 11, class: 'lane' }, 'p' + t.partition + '.' + t.attempt + (t.worker ? ' ' + t.worker : '')),
        svg('rect', { x: x1, y: y, width: x2 - x1, height: LANE - 4, rx: 2 },
          svg('title', {}, 'partition ' + t.partition + ' attempt ' + t.attempt + ': ' + millis(taskDuration(t))
              + (t.error ? ' — ' + t.error : '')))));
    });
    return el('div', { class: 'timeline-frame' }, root);
  }

  // ---- routing and refresh -----------------------------------------------------------------

  function render(page, ...children) {
    main.replaceChildren();
    append(main, children);
    document.body.dataset.ready = page;
    delete document.body.dataset.error;
  }

  function route() {
    const path = location.pathname.replace(/\/+$/, '');
    let m;
    if (path === '/ui' || path === '') {
      return clusterPage;
    }
    if ((m = path.match(/^\/ui\/queries\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]);
      document.title = 'Sluice: query ' + id;
      return () => queryPage(id);
    }
    if ((m = path.match(/^\/ui\/queries\/([^/]+)\/stages\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]);
      const stage = decodeURIComponent(m[2]);
      document.title = 'Sluice: query ' + id + ', stage ' + stage;
      return () => stagePage(id, stage);
    }
    return async () => {
      throw new Error('no such page: ' + location.pathname);
    };
  }

  const page = route();

  async function refresh() {
    clearTimeout(timer);
    let next = null;
    try {
      next = await page();
    } catch (e) {
      main.replaceChildren(el('h1', {}, 'Cannot show this page'), el('pre', { class: 'error', id: 'page-error' }, e.message));
      document.body.dataset.error = e.message;
      next = 5000;
    }
    if (next) {
      timer = setTimeout(refresh, next);
    }
  }

  refresh();
})();
