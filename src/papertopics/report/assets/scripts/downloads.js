/* papertopics report, downloads: a topic card's papers as a CSV file, built in the browser from
 * the document map's data files (the overview page). */
(function (PT) {
  'use strict';

  // One CSV cell, always quoted. A cell that a spreadsheet would run as a formula (=, +, -, @,
  // TAB or CR first) gets a leading apostrophe, as OWASP advises against CSV injection.
  function csvCell(value) {
    let text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text)) { text = "'" + text; }
    return '"' + text.replace(/"/g, '""') + '"';
  }

  // The document map's data files (headlines.js, docs-<k>.js), each loaded once, by <script>
  // (works on file://): resolves to {headline, doc_id} and the list of chunks.
  function documentData(info) {
    if (!info.loaded) {
      const payloads = {};
      window.papertopicsChunk = function (index, payload) { payloads[index] = payload; };
      const chunks = [];
      for (let k = 0; k < info.n_chunks; k++) {
        chunks.push(PT.loadPacked(info.chunk_folder + '/docs-' + k + '.js', (function (index) {
          return function () { const payload = payloads[index]; delete payloads[index]; return payload; };
        }(k))));
      }
      info.loaded = Promise.all([PT.loadHeadlines(info.headline_file), Promise.all(chunks)]);
    }
    return info.loaded;
  }

  // The CSV text of one topic's papers: topic, name, doc_id, title, the listing's own columns, abstract.
  function topicCsv(info, topic) {
    const Type = info.topic_bytes === 2 ? Int16Array : Int32Array;
    const topics = PT.packedArray(info.topic, Type);
    return documentData(info).then(function (loaded) {
      const headlines = loaded[0], chunks = loaded[1];
      const columns = [];
      chunks.forEach(function (chunk) {
        Object.keys(chunk.extra).forEach(function (c) { if (columns.indexOf(c) < 0) { columns.push(c); } });
      });
      const lines = [['topic', 'name', 'doc_id', 'title'].concat(columns, ['abstract']).map(csvCell).join(',')];
      const label = info.labels[String(topic)] || '';
      chunks.forEach(function (chunk) {
        chunk.text.forEach(function (text, j) {
          const row = chunk.first + j;
          if (topics[row] !== topic) { return; }
          const title = chunk.title[j] === null ? headlines.headline[row] : chunk.title[j];
          const cells = [topic, label, headlines.doc_id[row], title];
          columns.forEach(function (c) { cells.push(chunk.extra[c] ? chunk.extra[c][j] : ''); });
          cells.push(text);
          lines.push(cells.map(csvCell).join(','));
        });
      });
      return lines.join('\r\n') + '\r\n';
    });
  }

  function fileName(topic, label) {
    const slug = String(label || '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
    return (topic < 0 ? 'outliers' : 'topic-' + topic + (slug ? '-' + slug : '')) + '.csv';
  }

  function save(csv, name) {
    // a BOM, so that Excel reads the file as UTF-8
    const blob = new Blob(['\ufeff' + csv], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
  }

  // Every button[data-csv-topic] of the page downloads its topic's papers (`info`: the page's data).
  PT.setupDownloads = function (info) {
    window.papertopicsTopicCsv = function (topic) { return topicCsv(info, topic); };  // for the tests
    document.querySelectorAll('button[data-csv-topic]').forEach(function (button) {
      button.addEventListener('click', function () {
        const topic = Number(button.getAttribute('data-csv-topic'));
        const text = button.textContent;
        button.disabled = true;
        button.textContent = 'Preparing the CSV\u2026';
        topicCsv(info, topic).then(function (csv) {
          save(csv, fileName(topic, info.labels[String(topic)]));
          button.textContent = text;
        }).catch(function (error) {
          button.textContent = String(error.message || error);
          if (window.console) { console.error(error); }
        }).then(function () { button.disabled = false; });
      });
    });
  };
}(window.papertopicsReport = window.papertopicsReport || {}));
