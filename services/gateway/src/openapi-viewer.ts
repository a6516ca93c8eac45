/**
 * The API viewer at GET /openapi: a page that reads /openapi.json and lists every operation by
 * tag, with its parameters, request body and responses (schemas with their `$ref`s followed
 * one level). Self-written and served from here: no CDN, works without the internet.
 */
export const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agora API</title>
<link rel="stylesheet" href="/openapi/viewer.css">
<script src="/openapi/viewer.js" defer></script>
</head>
<body>
<header><h1>agora API</h1><p>OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a></p>
<input id="filter" type="search" placeholder="Filter by path or summary" aria-label="Filter operations"></header>
<main id="ops"><p>Loading…</p></main>
</body>
</html>
`;

export const VIEWER_CSS = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1d1d1f}
h1{margin:.2rem 0}h2{margin:1.5rem 0 .5rem;border-bottom:1px solid #ddd}
#filter{width:100%;padding:.4rem;font:inherit}
details{border:1px solid #ddd;border-radius:4px;margin:.3rem 0;padding:.2rem .6rem}
summary{cursor:pointer}code,pre{font:13px ui-monospace,monospace}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:24rem}
.m{display:inline-block;min-width:4.5rem;font-weight:600;text-transform:uppercase}
.get{color:#05668d}.post{color:#2b8a3e}.patch{color:#a35d00}.delete{color:#c92a2a}.put{color:#5f3dc4}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
`;

export const VIEWER_JS = `'use strict';
(function () {
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { e.append(c); });
    return e;
  }
  function resolve(doc, s) {
    if (s && typeof s.$ref === 'string' && s.$ref.indexOf('#/components/schemas/') === 0) {
      var name = s.$ref.slice(21);
      return { name: name, schema: doc.components.schemas[name] };
    }
    return { name: null, schema: s };
  }
  function schemaBlock(doc, s) {
    var r = resolve(doc, s);
    var box = el('div');
    if (r.name) box.append(el('p', {}, ['Schema ', el('code', {}, [r.name])]));
    box.append(el('pre', {}, [JSON.stringify(r.schema, null, 2)]));
    return box;
  }
  function opView(doc, path, method, op) {
    var body = el('div');
    if (op.parameters && op.parameters.length) {
      var rows = op.parameters.map(function (p) {
        return el('tr', {}, [el('td', {}, [el('code', {}, [p.name])]), el('td', {}, [p.in]),
          el('td', {}, [p.required ? 'required' : 'optional']), el('td', {}, [el('code', {}, [JSON.stringify(p.schema)])])]);
      });
      body.append(el('h4', {}, ['Parameters']), el('table', {}, rows));
    }
    if (op.requestBody) {
      Object.keys(op.requestBody.content).forEach(function (type) {
        body.append(el('h4', {}, ['Request body (' + type + ')']), schemaBlock(doc, op.requestBody.content[type].schema));
      });
    }
    Object.keys(op.responses).forEach(function (status) {
      var resp = op.responses[status];
      if (resp.$ref) { body.append(el('h4', {}, [status + ': ' + resp.$ref.split('/').pop()])); return; }
      body.append(el('h4', {}, [status + ': ' + resp.description]));
      Object.keys(resp.content || {}).forEach(function (type) { body.append(schemaBlock(doc, resp.content[type].schema)); });
    });
    var d = el('details', { 'data-text': (method + ' ' + path + ' ' + op.summary).toLowerCase() },
      [el('summary', {}, [el('span', { class: 'm ' + method }, [method]), el('code', {}, [path]), ' ', op.summary]), body]);
    return d;
  }
  function render(doc) {
    var byTag = {};
    Object.keys(doc.paths).forEach(function (path) {
      METHODS.forEach(function (m) {
        var op = doc.paths[path][m];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || 'other';
        (byTag[tag] = byTag[tag] || []).push(opView(doc, path, m, op));
      });
    });
    var main = document.getElementById('ops');
    main.replaceChildren();
    Object.keys(byTag).sort().forEach(function (tag) {
      main.append(el('section', {}, [el('h2', {}, [tag])].concat(byTag[tag])));
    });
  }
  function filter(q) {
    document.querySelectorAll('details').forEach(function (d) {
      d.hidden = q !== '' && d.getAttribute('data-text').indexOf(q) < 0;
    });
    document.querySelectorAll('section').forEach(function (s) {
      s.hidden = !s.querySelector('details:not([hidden])');
    });
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('filter').addEventListener('input', function (e) { filter(e.target.value.toLowerCase()); });
    fetch('/openapi.json', { headers: { accept: 'application/json' } })
      .then(function (r) { if (!r.ok) throw new Error('GET /openapi.json: ' + r.status); return r.json(); })
      .then(render)
      .catch(function (err) { document.getElementById('ops').textContent = String(err); });
  });
})();
`;
