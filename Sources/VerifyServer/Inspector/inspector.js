(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function showFields() {
    var format = $('format').value;
    document.querySelectorAll('.fields').forEach(function (group) {
      group.classList.toggle('hidden', group.getAttribute('data-for').split(' ').indexOf(format) < 0);
    });
  }

  function readFile(file) {
    var reader = new FileReader();
    reader.onload = function () {
      var bytes = new Uint8Array(reader.result);
      var text = null;
      if (bytes.indexOf(0) < 0) {
        try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { text = null; }
      }
      if (text === null) {
        var binary = '';
        for (var i = 0; i < bytes.length; i++) { binary += String.fromCharCode(bytes[i]); }
        text = btoa(binary);
      }
      $('response').value = text.trim();
    };
    reader.readAsArrayBuffer(file);
  }

  function body() {
    var format = $('format').value;
    var out = { format: format, response: $('response').value.trim() };
    ['merchantId', 'teamId', 'nonce', 'requestId', 'sessionTranscript'].forEach(function (id) {
      var group = $(id).closest('.fields');
      var value = $(id).value.trim();
      if (value && !group.classList.contains('hidden')) { out[id] = value; }
    });
    return out;
  }

  function showError(result, code, message) {
    var line = el('div', 'error');
    line.appendChild(el('span', 'error-code', code));
    line.appendChild(el('span', null, message));
    result.appendChild(line);
  }

  var ORDER = { fail: 0, warn: 1, pass: 2, skip: 3 };
  var DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

  function value(name, v) {
    if (typeof v === 'string') {
      var image = /(^portrait$|^signature_usual_mark$|_image$)/.test(name);
      if (image && /^\/9j\//.test(v)) { return imageNode('image/jpeg', v); }
      if (image && /^AAAADGpQ/.test(v)) { return imageNode('image/jp2', v); }
      if (DATE.test(v) && !isNaN(Date.parse(v))) {
        var time = el('time', null, new Date(v).toLocaleDateString(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }));
        time.setAttribute('datetime', v);
        return time;
      }
      return el('span', null, v);
    }
    if (typeof v === 'boolean') { return el('span', null, v ? 'yes' : 'no'); }
    if (v === null) { return el('span', null, 'null'); }
    if (typeof v === 'object') { return el('pre', null, JSON.stringify(v, null, 2)); }
    return el('span', null, v);
  }

  function imageNode(type, base64) {
    var img = el('img', 'portrait');
    img.alt = 'portrait';
    img.src = 'data:' + type + ';base64,' + base64;
    return img;
  }

  function checksTable(checks) {
    var table = el('table');
    table.id = 'checks';
    var head = el('tr');
    ['status', 'check', 'detail', 'clause'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    table.appendChild(head);
    checks.map(function (c, i) { return [c, i]; })
      .sort(function (a, b) { return (ORDER[a[0].status] - ORDER[b[0].status]) || (a[1] - b[1]); })
      .forEach(function (pair) {
        var c = pair[0];
        var row = el('tr', 'check status-' + c.status);
        row.appendChild(el('td', null, c.status));
        row.appendChild(el('td', 'mono', c.id + (c.code ? ' (' + c.code + ')' : '')));
        row.appendChild(el('td', null, c.detail));
        row.appendChild(el('td', 'clause', c.clause));
        table.appendChild(row);
      });
    return table;
  }

  function documentsSection(documents) {
    var section = el('section');
    section.id = 'documents';
    documents.forEach(function (doc) {
      section.appendChild(el('h3', 'mono', doc.docType));
      if (doc.issuer) {
        section.appendChild(el('p', null, 'Issuer: ' + (doc.issuer.documentSigner || '') + ' ← ' + (doc.issuer.root || '')));
      }
      if (doc.validity) {
        section.appendChild(el('p', null, 'Valid ' + (doc.validity.validFrom || '?') + ' to ' + (doc.validity.validUntil || '?')));
      }
      Object.keys(doc.elements || {}).forEach(function (ns) {
        section.appendChild(el('h4', 'mono', ns));
        var table = el('table');
        Object.keys(doc.elements[ns]).forEach(function (name) {
          var row = el('tr', 'element');
          row.appendChild(el('td', 'mono', name));
          var cell = el('td');
          cell.appendChild(value(name, doc.elements[ns][name]));
          row.appendChild(cell);
          table.appendChild(row);
        });
        section.appendChild(table);
      });
    });
    return section;
  }

  function scalar(node) {
    switch (node.type) {
      case 'text': return el('span', 'str', JSON.stringify(node.value));
      case 'bytes': return el('span', 'str', "h'" + node.hex + (node.truncated ? "…' (" + node.length + ' bytes)' : "'"));
      case 'null': return el('span', 'num', 'null');
      case 'undefined': return el('span', 'num', 'undefined');
      case 'simple': return el('span', 'num', 'simple(' + node.value + ')');
      default: return el('span', 'num', node.value);
    }
  }

  function cborNode(node, depth, label) {
    var container = node.type === 'map' || node.type === 'array' || node.type === 'tag';
    if (!container) {
      var line = el('div', 'cbor-line');
      if (label) { line.appendChild(label); line.appendChild(document.createTextNode(': ')); }
      line.appendChild(scalar(node));
      return line;
    }
    var details = el('details');
    if (depth < 2) { details.open = true; }
    var summary = el('summary');
    if (label) { summary.appendChild(label); summary.appendChild(document.createTextNode(': ')); }
    if (node.type === 'map') {
      summary.appendChild(document.createTextNode('{ ' + node.entries.length + ' entries }'));
      node.entries.forEach(function (entry) {
        var key = entry.key.type === 'text' || entry.key.type === 'uint' || entry.key.type === 'nint'
          ? el('span', 'key', entry.key.type === 'text' ? JSON.stringify(entry.key.value) : entry.key.value)
          : el('span', 'key', '(' + entry.key.type + ' key)');
        details.appendChild(cborNode(entry.value, depth + 1, key));
      });
    } else if (node.type === 'array') {
      summary.appendChild(document.createTextNode('[ ' + node.items.length + ' items ]'));
      node.items.forEach(function (item) { details.appendChild(cborNode(item, depth + 1, null)); });
    } else {
      summary.appendChild(document.createTextNode(node.tag + (node.embedded ? '(<< … >>)' : '(…)')));
      details.appendChild(cborNode(node.embedded || node.item, depth + 1, node.embedded ? el('span', 'key', 'embedded') : null));
    }
    details.insertBefore(summary, details.firstChild);
    return details;
  }

  function render(answer) {
    var result = $('result');
    result.textContent = '';
    var report = answer.report;
    var verdict = el('div', report.verified ? 'verified' : 'rejected',
      (report.verified ? 'VERIFIED' : 'REJECTED') + ' · ' + report.format + ' · ' + report.assurance + ' assurance');
    verdict.id = 'verdict';
    result.appendChild(verdict);
    (report.errors || []).forEach(function (e) { showError(result, e.code, e.message); });
    result.appendChild(el('h2', null, 'Checks'));
    result.appendChild(checksTable(report.checks || []));
    if ((report.documents || []).length) {
      result.appendChild(el('h2', null, 'Documents'));
      result.appendChild(documentsSection(report.documents));
    }
    if (answer.cbor) {
      result.appendChild(el('h2', null, 'Decoded CBOR'));
      var cbor = el('div');
      cbor.id = 'cbor';
      cbor.appendChild(cborNode(answer.cbor, 0, null));
      result.appendChild(cbor);
    }
  }

  function verify() {
    var button = $('verify');
    var result = $('result');
    button.disabled = true;
    button.textContent = 'Verifying…';
    fetch('/v1/inspect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body()) })
      .then(function (response) {
        return response.json().then(function (json) { return { status: response.status, json: json }; },
          function () { return { status: response.status, json: null }; });
      })
      .then(function (answer) {
        if (answer.status === 200 && answer.json && answer.json.report) {
          render(answer.json);
        } else {
          result.textContent = '';
          var error = answer.json && answer.json.error;
          showError(result, error ? error.code : 'HTTP ' + answer.status, error ? error.message : 'unexpected answer');
        }
      })
      .catch(function (e) {
        result.textContent = '';
        showError(result, 'network', 'the server could not be reached: ' + e.message);
      })
      .then(function () {
        button.disabled = false;
        button.textContent = 'Verify';
      });
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('format').addEventListener('change', showFields);
    $('verify').addEventListener('click', verify);
    $('clear').addEventListener('click', function () {
      $('form').reset();
      $('result').textContent = '';
      showFields();
    });
    $('response').addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { verify(); }
    });
    $('file').addEventListener('change', function () { if (this.files[0]) { readFile(this.files[0]); } });
    var drop = $('drop');
    drop.addEventListener('dragover', function (event) { event.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', function () { drop.classList.remove('over'); });
    drop.addEventListener('drop', function (event) {
      event.preventDefault();
      drop.classList.remove('over');
      if (event.dataTransfer.files[0]) { readFile(event.dataTransfer.files[0]); }
    });
    showFields();
  });
})();
