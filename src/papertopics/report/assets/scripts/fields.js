/* papertopics report, fields: the document map coloured by a field of the listing (year, venue,
 * listing) with its legend, and the years' histogram under the map whose brush filters the points
 * (datamapplot's). The fields come packed in the page's data (report.documents.document_fields). */
(function (PT) {
  'use strict';

  // viridis at five stops, for numbers (years); Tableau 10 for categories
  const RAMP = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
    '#9c755f', '#17becf'];
  const OTHER = '#b8b8b8', NONE = '#e2e2e2';

  function ramp(t) {
    const x = Math.max(0, Math.min(1, t)) * (RAMP.length - 1), k = Math.min(RAMP.length - 2, Math.floor(x));
    const f = x - k, a = RAMP[k], b = RAMP[k + 1];
    return 'rgb(' + [0, 1, 2].map(function (i) { return Math.round(a[i] + f * (b[i] - a[i])); }).join(',') + ')';
  }

  // A time value as shown: a year, or "2025-10" for months counted from the field's origin;
  // citations (report.citations: count + 1, on a log scale) as the count.
  function timeText(field, value) {
    if (field.scale === 'log') { return String(value - 1); }
    if (field.name !== 'month') { return String(value); }
    const m = value - 1;
    return (field.origin + Math.floor(m / 12)) + '-' + String(m % 12 + 1).padStart(2, '0');
  }

  function swatch(color, text) {
    const item = document.createElement('span');
    item.className = 'legend-item';
    const box = document.createElement('span');
    box.className = 'swatch';
    box.style.background = color;
    item.appendChild(box);
    item.appendChild(document.createTextNode(text));
    return item;
  }

  class MapFields {
    constructor(map) {
      this.map = map;
      this.fields = {};
      (map.docs.fields || []).forEach((field) => {
        // numbers in 16 bits, the citations in 32 (field.type 'u4': counts up to 2^31), codes in 8
        const Type = field.type === 'u4' ? Uint32Array : field.kind === 'numeric' ? Uint16Array : Uint8Array;
        this.fields[field.name] = Object.assign({}, field, { values: PT.packedArray(field.values, Type) });
      });
      if (map.docs.listing_names.length > 1) {
        const codes = new Uint8Array(map.n);
        for (let r = 0; r < map.n; r++) { codes[r] = (map.docs.listings[r][0] || 0) + 1; }
        this.fields.listing = { name: 'listing', kind: 'category', values: codes, labels: map.docs.listing_names };
      }
      this.year = this.fields.year || this.fields.month || null;  // the time field: the histogram's
      this.colours = map.traces.map(function (trace) { return trace.marker ? trace.marker.color : null; });
      this.select = document.getElementById('color-by');
      this.legend = document.getElementById('map-legend');
      map.state.years = null;
    }

    build() {
      const names = Object.keys(this.fields);
      if (!names.length || !this.select) { return; }
      names.forEach((name) => {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = name;
        this.select.appendChild(option);
      });
      this.select.parentNode.hidden = false;
      this.select.addEventListener('change', () => this.colour(this.select.value));
      if (this.year) { this.histogram(); }
    }

    colourOf(field, row) {
      const value = field.values[row];
      if (field.scale === 'log') { return value ? ramp(Math.log(value) / Math.log(field.max)) : NONE; }
      if (field.kind === 'numeric') { return value ? ramp((value - field.min) / Math.max(1, field.max - field.min)) : NONE; }
      if (!value) { return NONE; }
      return field.other && value === field.labels.length ? OTHER : PALETTE[(value - 1) % PALETTE.length];
    }

    colour(name) {
      const map = this.map, field = this.fields[name];
      const colours = map.topicTraces.map((index) => {
        if (!field) { return this.colours[index]; }
        return map.original[index].rows.map((row) => this.colourOf(field, row));
      });
      Plotly.restyle(map.gd, { 'marker.color': colours }, map.topicTraces);
      map.container.setAttribute('data-colour', field ? name : 'topic');
      this.drawLegend(field);
    }

    drawLegend(field) {
      const legend = this.legend;
      legend.textContent = '';
      legend.hidden = !field;
      if (!field) { return; }
      if (field.kind === 'numeric') {
        const scale = field.scale === 'log' ? ' (log scale)' : '';
        legend.appendChild(document.createTextNode(field.name + scale + ': ' + timeText(field, field.min) + ' '));
        const bar = document.createElement('span');
        bar.className = 'legend-ramp';
        bar.style.background = 'linear-gradient(to right, ' + [0, 0.25, 0.5, 0.75, 1].map(ramp).join(', ') + ')';
        legend.appendChild(bar);
        legend.appendChild(document.createTextNode(' ' + timeText(field, field.max)));
        return;
      }
      field.labels.forEach((label, k) => {
        legend.appendChild(swatch(field.other && k === field.labels.length - 1 ? OTHER : PALETTE[k % PALETTE.length], label));
      });
    }

    // Whether a row passes the years' brush.
    keep(row) {
      const years = this.map.state.years;
      if (!years || !this.year) { return true; }
      const value = this.year.values[row];
      return value >= years[0] && value <= years[1];
    }

    histogram() {
      const box = document.getElementById('date-histogram');
      const counts = {};
      for (let r = 0; r < this.map.n; r++) {
        const y = this.year.values[r];
        if (y) { counts[y] = (counts[y] || 0) + 1; }
      }
      const years = Object.keys(counts).map(Number).sort(function (a, b) { return a - b; });
      box.hidden = false;
      const trace = { type: 'bar', x: years, y: years.map(function (y) { return counts[y]; }),
        marker: { color: years.map((y) => ramp((y - this.year.min) / Math.max(1, this.year.max - this.year.min))) },
        text: years.map((y) => timeText(this.year, y)), textposition: 'none',
        hovertemplate: '%{text}: %{y} papers<extra></extra>' };
      const every = Math.max(1, Math.ceil(years.length / 12));
      const ticks = years.filter(function (y, k) { return k % every === 0; });
      const layout = { height: 130, margin: { l: 40, r: 10, t: 6, b: 24 }, dragmode: 'select', selectdirection: 'h',
        xaxis: { fixedrange: true, tickvals: ticks, ticktext: ticks.map((y) => timeText(this.year, y)) },
        yaxis: { fixedrange: true }, bargap: 0.1, template: 'plotly_white' };
      return Plotly.newPlot(box, [trace], layout, { displayModeBar: false, responsive: true }).then(() => {
        box.on('plotly_selected', (event) => {
          if (!event || !event.range) { return; }
          this.setYears([Math.ceil(event.range.x[0]), Math.floor(event.range.x[1])]);
        });
        box.on('plotly_deselect', () => this.setYears(null));
      });
    }

    setYears(years) {
      this.map.state.years = years;
      this.map.container.setAttribute('data-years', years ? years.map((y) => timeText(this.year, y)).join('/') : '');
      this.map.search.apply();
    }

    reset() {
      if (this.select) { this.select.value = 'topic'; }
      this.colour('topic');
      if (this.map.state.years) {
        const box = document.getElementById('date-histogram');
        Plotly.restyle(box, { selectedpoints: [null] });
        this.setYears(null);
      }
    }
  }

  PT.MapFields = MapFields;
}(window.papertopicsReport = window.papertopicsReport || {}));
