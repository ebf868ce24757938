/* papertopics report, plot: shared helpers of every page (the page's data, its readiness, plotly).
 * Each file of report/assets/scripts adds its feature to one namespace, window.papertopicsReport;
 * render_report joins them into report.js in the order of report.registry.SCRIPTS. */
(function (PT) {
  'use strict';

  PT.PLOT_CONFIG = {
    displaylogo: false,
    responsive: true,
    scrollZoom: false,
    modeBarButtonsToRemove: ['select2d', 'lasso2d', 'autoScale2d'],
    toImageButtonOptions: { format: 'png', scale: 2 }
  };

  // The document map zooms with the wheel, like a map.
  PT.MAP_CONFIG = Object.assign({}, PT.PLOT_CONFIG, { scrollZoom: true });

  PT.readData = function () {
    const element = document.getElementById('report-data');
    return element ? JSON.parse(element.textContent) : null;
  };

  PT.markReady = function (error) {
    if (error) {
      document.documentElement.setAttribute('data-error', String(error));
    }
    // Milliseconds from navigation start until the figures are drawn (the tests read it).
    document.documentElement.setAttribute('data-ready-ms', String(Math.round(performance.now())));
    document.documentElement.setAttribute('data-ready', '1');
  };

  function showError(container, message) {
    const box = document.createElement('p');
    box.className = 'callout';
    box.textContent = message;
    container.appendChild(box);
  }

  function webglAvailable() {
    try {
      const canvas = document.createElement('canvas');
      return !!(window.WebGLRenderingContext && (canvas.getContext('webgl') || canvas.getContext('experimental-webgl')));
    } catch (error) {
      return false;
    }
  }

  function withoutWebgl(figure) {
    figure.data.forEach(function (trace) { if (trace.type === 'scattergl') { trace.type = 'scatter'; } });
  }

  PT.plot = function (container, figure, config) {
    if (!window.Plotly) {
      const message = 'plotly.min.js did not load: keep it in the same folder as this page.';
      showError(container, message);
      return Promise.reject(new Error(message));
    }
    if (!webglAvailable()) { withoutWebgl(figure); }
    return Plotly.newPlot(container, figure.data, figure.layout, config).then(function (gd) {
      // Plotly replaces a WebGL plot it cannot draw with a notice (that links to a web site):
      // draw the same points with SVG instead.
      if (container.querySelector('.no-webgl')) {
        console.warn('WebGL failed: drawing the map with SVG');
        withoutWebgl(figure);
        Plotly.purge(container);
        return Plotly.newPlot(container, figure.data, figure.layout, config);
      }
      return gd;
    });
  };

  function decodeBase64(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return bytes;
  }

  // A base64 string of little-endian numbers (documents.py's packed arrays) as a typed array.
  PT.packedArray = function (text, Type) {
    return text ? new Type(decodeBase64(text).buffer) : null;
  };

  PT.darker = function (hex, factor) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || '');
    if (!m) { return '#1d2430'; }
    return 'rgb(' + [1, 2, 3].map(function (k) { return Math.round(parseInt(m[k], 16) * factor); }).join(',') + ')';
  };

  PT.shorten = function (text, max) {
    text = String(text || '');
    if (text.length <= max) { return text; }
    let cut = text.slice(0, max - 1);
    const space = cut.lastIndexOf(' ');
    if (space > max * 0.6) { cut = cut.slice(0, space); }
    return cut.replace(/[\s,;:]+$/, '') + '\u2026';
  };
}(window.papertopicsReport = window.papertopicsReport || {}));
