// The inspector page: posts a pasted response to /v1/inspect and draws the report and the decoded CBOR.
// Everything drawn comes from an untrusted response, so the DOM is built with createElement and textContent only;
// no styles are set from script (the page runs under a strict Content-Security-Policy): classes do it all.
(function () {
  'use strict';

  var FIELDS = ['merchantId', 'teamId', 'nonce', 'requestId', 'sessionTranscript'];
  var ORDER = { fail: 0, warn: 1, pass: 2, skip: 3 };
  var FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;
  var DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  var BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
  var inFlight = false;

  // Control characters (but tab and newline) and bidirectional controls, which would reorder what is shown: drawn as
  // visible escapes such as \u{202E} (the set the CLI escapes, less tab and newline).
  var INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g;

  function visible(text) {
    return String(text).replace(INVISIBLE, function (c) { return '\\u{' + c.charCodeAt(0).toString(16).toUpperCase() + '}'; });
  }

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = visible(text); }
    return node;
  }

  function append(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) { continue; }
      parent.appendChild(typeof child === 'string' ? document.createTextNode(visible(child)) : child);
    }
    return parent;
  }

  function list(value) { return Array.isArray(value) ? value : []; }
  function isObject(value) { return value !== null && typeof value === 'object' && !Array.isArray(value); }

  // ---- Form ----

  function showFields() {
    var format = $('format').value;
    document.querySelectorAll('.fields').forEach(function (group) {
      var formats = (group.getAttribute('data-for') || '').split(/\s+/);
      group.classList.toggle('hidden', formats.indexOf(format) < 0);
    });
  }

  function requestBody() {
    var body = { format: $('format').value, response: $('response').value.trim() };
    FIELDS.forEach(function (id) {
      var input = $(id);
      var group = input.closest('.fields');
      var value = input.value.trim();
      if (value && !(group && group.classList.contains('hidden'))) { body[id] = value; }
    });
    return body;
  }

  function toBase64(bytes) {
    var binary = '';
    for (var i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  }

  function readFile(file) {
    var reader = new FileReader();
    reader.onload = function () {
      var bytes = new Uint8Array(reader.result);
      var text = null;
      if (bytes.indexOf(0) < 0) {
        try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { text = null; }
      }
      $('response').value = text === null ? toBase64(bytes) : text.trim();
      $('response').focus();
    };
    reader.onerror = function () {
      showFailure('The file ' + file.name + ' could not be read' + (reader.error ? ': ' + reader.error.message : '.'));
    };
    reader.readAsArrayBuffer(file);
  }

  // ---- Values ----

  function dateNode(text) {
    var date = new Date(text);
    if (isNaN(date.getTime())) { return null; }
    var readable = FULL_DATE.test(text)
      ? date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' })
      : date.toLocaleString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric',
          hour: '2-digit', minute: '2-digit', second: '2-digit' }) + ' UTC';
    var time = el('time', 'date', readable);
    time.setAttribute('datetime', text);
    time.title = text;
    return time;
  }

  function isImageElement(name) { return /^(portrait|signature_usual_mark)$|_image$/.test(name); }

  function imageNode(name, text) {
    var base64 = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
    if (!BASE64.test(base64)) { return null; }
    var type = base64.indexOf('/9j/') === 0 ? 'image/jpeg' : base64.indexOf('AAAADGpQ') === 0 ? 'image/jp2' : null;
    if (!type) { return null; }
    var img = el('img', 'portrait');
    img.alt = name + ' (' + type + ')';
    img.src = 'data:' + type + ';base64,' + base64;
    return img;
  }

  function valueNode(name, value, depth) {
    if (typeof value === 'string') {
      if (value === '') { return el('span', 'null', '(empty)'); }
      var special = (isImageElement(name) && imageNode(name, value)) ||
        ((FULL_DATE.test(value) || DATE_TIME.test(value)) && dateNode(value));
      return special || el('span', 'text', value);
    }
    if (typeof value === 'boolean') { return el('span', 'bool', value ? 'yes' : 'no'); }
    if (typeof value === 'number') { return el('span', 'number', value); }
    if (value === null || value === undefined) { return el('span', 'null', 'null'); }
    if (depth >= 4) { return el('pre', 'json', JSON.stringify(value, null, 2)); }
    if (Array.isArray(value) && value.length === 0) { return el('span', 'null', '[]'); }
    var table = el('table', 'nested');
    var keys = Array.isArray(value) ? value.map(function (_, i) { return i; }) : Object.keys(value);
    if (keys.length === 0) { return el('span', 'null', '{}'); }
    keys.forEach(function (key) {
      var row = el('tr');
      var cell = el('td');
      append(row, el('td', 'mono key', Array.isArray(value) ? '[' + key + ']' : key),
        append(cell, valueNode(String(key), value[key], depth + 1)));
      table.appendChild(row);
    });
    return table;
  }

  // ---- Report ----

  function errorLine(code, message) {
    return append(el('li', 'error'), el('span', 'error-code', code), ' ', el('span', 'error-message', message));
  }

  function verdictNode(report) {
    var verdict = el('div', 'verdict ' + (report.verified ? 'verified' : 'rejected'));
    verdict.id = 'verdict';
    append(verdict, el('strong', null, report.verified ? 'VERIFIED' : 'REJECTED'),
      ' · ' + (report.format || '?') + ' · ' + (report.assurance || '?') + ' assurance');
    return verdict;
  }

  function checksTable(checks) {
    var table = el('table', 'checks');
    table.id = 'checks';
    var head = el('tr');
    ['status', 'id', 'detail', 'clause'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    append(table, append(el('thead'), head));
    var body = el('tbody');
    var rank = function (c) { return ORDER.hasOwnProperty(c.status) ? ORDER[c.status] : 4; };
    checks.filter(isObject)
      .map(function (c, i) { return { check: c, index: i }; })
      .sort(function (a, b) { return (rank(a.check) - rank(b.check)) || (a.index - b.index); })
      .forEach(function (entry) {
        var c = entry.check;
        var status = String(c.status || 'unknown');
        var row = el('tr', 'check status-' + status.replace(/[^a-z]/g, ''));
        append(row, append(el('td', 'status'), el('span', 'status-word', status)),
          el('td', 'mono id', c.id), el('td', 'detail', c.detail), el('td', 'clause', c.clause));
        body.appendChild(row);
      });
    return append(table, body);
  }

  function checkCounts(checks) {
    var counts = {};
    checks.forEach(function (c) { if (isObject(c)) { counts[c.status] = (counts[c.status] || 0) + 1; } });
    return ['fail', 'warn', 'pass', 'skip'].filter(function (s) { return counts[s]; })
      .map(function (s) { return counts[s] + ' ' + s; }).join(', ');
  }

  function definition(dl, term, value) {
    if (value === undefined || value === null || value === '') { return; }
    append(dl, el('dt', null, term), append(el('dd'), typeof value === 'string' ? valueNode('', value, 0) : value));
  }

  function documentNode(doc) {
    var section = el('section', 'document');
    section.appendChild(el('h3', 'mono doctype', doc.docType || '(no docType)'));
    var dl = el('dl', 'facts');
    var issuer = isObject(doc.issuer) ? doc.issuer : {};
    var validity = isObject(doc.validity) ? doc.validity : {};
    definition(dl, 'Document signer', issuer.documentSigner);
    definition(dl, 'Root', issuer.root);
    if (issuer.validFrom || issuer.validUntil) {
      definition(dl, 'Signer certificate valid', append(el('span'), valueNode('', issuer.validFrom || '?', 0), ' – ',
        valueNode('', issuer.validUntil || '?', 0)));
    }
    if (issuer.anchor !== undefined && issuer.anchor !== null) { definition(dl, 'Trust anchor', valueNode('anchor', issuer.anchor, 2)); }
    definition(dl, 'Signed', validity.signed);
    if (validity.validFrom || validity.validUntil) {
      definition(dl, 'Valid', append(el('span'), valueNode('', validity.validFrom || '?', 0), ' – ',
        valueNode('', validity.validUntil || '?', 0)));
    }
    definition(dl, 'Expected update', validity.expectedUpdate);
    section.appendChild(dl);
    var elements = isObject(doc.elements) ? doc.elements : {};
    Object.keys(elements).forEach(function (namespace) {
      section.appendChild(el('h4', 'mono namespace', namespace));
      var table = el('table', 'elements');
      var items = isObject(elements[namespace]) ? elements[namespace] : {};
      Object.keys(items).forEach(function (name) {
        var row = el('tr', 'element');
        append(row, el('td', 'mono identifier', name), append(el('td', 'value'), valueNode(name, items[name], 0)));
        table.appendChild(row);
      });
      section.appendChild(table);
    });
    return section;
  }

  // ---- CBOR (diagnostic notation) ----

  function scalarText(node) {
    switch (node.type) {
      case 'text': return JSON.stringify(String(node.value));
      case 'bytes': return "h'" + (node.hex || '') + (node.truncated ? "…' (" + node.length + ' bytes)' : "'");
      case 'null': case 'undefined': return node.type;
      case 'simple': return 'simple(' + node.value + ')';
      default: return String(node.value);
    }
  }

  function count(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function isContainer(node) {
    return node.type === 'map' || node.type === 'array' || (node.type === 'tag' && isObject(node.item) &&
      (node.embedded !== undefined || isContainer(node.item)));
  }

  function scalarNode(node) {
    if (node.type === 'tag') {
      return append(el('span', 'cbor-tag'), node.tag + '(', scalarNode(isObject(node.item) ? node.item : { type: 'null' }), ')');
    }
    var kind = node.type === 'text' || node.type === 'bytes' ? 'cbor-string' : 'cbor-number';
    return el('span', kind, scalarText(node));
  }

  function keyNode(node) {
    if (!isObject(node)) { return el('span', 'cbor-key', '?'); }
    if (!isContainer(node)) { return append(el('span', 'cbor-key'), scalarNode(node)); }
    var summary = node.type === 'map' ? '{ ' + count(list(node.entries).length, 'entry', 'entries') + ' }'
      : node.type === 'array' ? '[ ' + count(list(node.items).length, 'item', 'items') + ' ]' : node.tag + '(…)';
    return el('span', 'cbor-key', summary);
  }

  function cborNode(node, depth, label) {
    if (!isObject(node)) { node = { type: 'undefined' }; }
    if (!isContainer(node)) {
      return append(el('div', 'cbor-line'), label, label ? ': ' : null, scalarNode(node));
    }
    var details = el('details', 'cbor-node');
    details.open = depth < 2;
    var summary = append(el('summary'), label, label ? ': ' : null);
    details.appendChild(summary);
    var prefix = '';
    var suffix = '';
    while (node.type === 'tag' && node.embedded === undefined) {  // e.g. 1004({…}): the tag around its container
      prefix += node.tag + '(';
      suffix += ')';
      node = node.item;
    }
    if (node.type === 'map') {
      var entries = list(node.entries);
      append(summary, el('span', 'cbor-brace', prefix + '{ ' + count(entries.length, 'entry', 'entries') + ' }' + suffix));
      entries.forEach(function (entry) {
        if (isObject(entry)) { details.appendChild(cborNode(entry.value, depth + 1, keyNode(entry.key))); }
      });
    } else if (node.type === 'array') {
      var items = list(node.items);
      append(summary, el('span', 'cbor-brace', prefix + '[ ' + count(items.length, 'item', 'items') + ' ]' + suffix));
      items.forEach(function (item) { details.appendChild(cborNode(item, depth + 1, null)); });
    } else {
      var bytes = isObject(node.item) && node.item.type === 'bytes' ? ' ' + node.item.length + ' bytes' : '';
      append(summary, el('span', 'cbor-brace', prefix + node.tag + '(<< … >>)' + suffix), el('span', 'cbor-note', bytes));
      details.appendChild(cborNode(node.embedded, depth + 1, null));
    }
    return details;
  }

  // ---- Result ----

  function clearResult() {
    var result = $('result');
    result.textContent = '';
    result.classList.remove('pending');
    return result;
  }

  function showFailure(message) {
    append(clearResult(), el('p', 'failure', message));
  }

  function showRefusal(status, error) {
    var result = clearResult();
    result.appendChild(el('p', 'refused', 'The server refused the request (HTTP ' + status + ').'));
    var code = error && error.code ? String(error.code) : 'http.' + status;
    var message = error && error.message ? String(error.message) : 'The answer carried no error description.';
    result.appendChild(append(el('ul', 'errors'), errorLine(code, message)));
  }

  function render(answer) {
    var result = clearResult();
    var report = answer.report;
    result.appendChild(verdictNode(report));
    var errors = list(report.errors).filter(isObject);
    if (!report.verified && errors.length) {
      var ul = el('ul', 'errors');
      errors.forEach(function (e) { ul.appendChild(errorLine(e.code, e.message)); });
      result.appendChild(ul);
    }
    var checks = list(report.checks);
    result.appendChild(append(el('h2', null, 'Checks'), el('span', 'counts', checkCounts(checks))));
    result.appendChild(checksTable(checks));
    var documents = list(report.documents).filter(isObject);
    var section = el('section', 'documents');
    section.id = 'documents';
    append(section, el('h2', null, 'Documents'));
    if (!documents.length) { section.appendChild(el('p', 'none', 'No document was returned.')); }
    documents.forEach(function (doc) { section.appendChild(documentNode(doc)); });
    result.appendChild(section);
    if (isObject(answer.cbor)) {
      result.appendChild(el('h2', null, 'Decoded CBOR (DeviceResponse)'));
      var cbor = el('div', 'cbor');
      cbor.id = 'cbor';
      cbor.appendChild(cborNode(answer.cbor, 0, null));
      result.appendChild(cbor);
    }
  }

  function verify() {
    if (inFlight) { return; }
    inFlight = true;
    var button = $('verify');
    button.disabled = true;
    button.textContent = 'Verifying…';
    var result = clearResult();
    result.classList.add('pending');
    result.appendChild(el('p', 'pending-note', 'Verifying…'));
    fetch('/v1/inspect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requestBody()) })
      .then(function (response) {
        return response.json().then(function (json) { return { status: response.status, json: json }; },
          function () { return { status: response.status, json: null }; });
      })
      .then(function (answer) {
        if (answer.status === 200 && isObject(answer.json) && isObject(answer.json.report)) {
          render(answer.json);
        } else if (answer.status === 404 && !(isObject(answer.json) && answer.json.error)) {
          showFailure('The server answered 404: the inspector is off (it needs inspector: true in test mode).');
        } else {
          showRefusal(answer.status, isObject(answer.json) && isObject(answer.json.error) ? answer.json.error : null);
        }
      })
      .catch(function (e) {
        showFailure('The server could not be reached (' + (e && e.message ? e.message : 'network error') + '). Is verify-server running?');
      })
      .then(function () {
        inFlight = false;
        button.disabled = false;
        button.textContent = 'Verify';
      });
  }

  function start() {
    $('format').addEventListener('change', showFields);
    $('verify').addEventListener('click', verify);
    $('clear').addEventListener('click', function () {
      $('form').reset();
      clearResult();
      showFields();
      $('response').focus();
    });
    $('response').addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        verify();
      }
    });
    $('file').addEventListener('change', function () {
      if (this.files && this.files[0]) { readFile(this.files[0]); }
    });
    var drop = $('drop');
    // A file dropped anywhere on the page is read (rather than opened by the browser in place of the page).
    // Text dragged into the textarea is left to the browser.
    var carriesFiles = function (event) {
      var types = event.dataTransfer ? Array.prototype.slice.call(event.dataTransfer.types || []) : [];
      return types.indexOf('Files') >= 0;
    };
    document.addEventListener('dragover', function (event) {
      if (!carriesFiles(event)) { return; }
      event.preventDefault();
      drop.classList.add('over');
    });
    document.addEventListener('dragleave', function (event) {
      if (!event.relatedTarget) { drop.classList.remove('over'); }
    });
    document.addEventListener('drop', function (event) {
      drop.classList.remove('over');
      if (!carriesFiles(event)) { return; }
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files[0]) { readFile(files[0]); }
    });
    showFields();
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
