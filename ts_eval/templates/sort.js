/* Sortable tables: click a column header to sort by it (again to reverse).  Each cell carries
   its raw value in data-sort; numbers sort as numbers, empty cells last; total rows at the top
   or the bottom of a table stay there. */
(function () {
  document.documentElement.classList.add("js");
  function key(row, col) { var c = row.cells[col]; return c ? c.getAttribute("data-sort") : ""; }
  function sortBy(table, th, col) {
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var total = function (r) { return r.classList.contains("r-total"); };
    var head = 0, tail = rows.length;
    while (head < tail && total(rows[head])) { head++; }
    while (tail > head && total(rows[tail - 1])) { tail--; }
    var top = rows.slice(0, head), bottom = rows.slice(tail);
    rows = rows.slice(head, tail);
    var numeric = rows.every(function (r) { var v = key(r, col); return v === "" || !isNaN(Number(v)); });
    rows.sort(function (a, b) {
      var x = key(a, col), y = key(b, col);
      if (x === "" || y === "") { return (x === "") - (y === ""); }
      var d = numeric ? Number(x) - Number(y) : x.localeCompare(y, undefined, {numeric: true});
      return asc ? d : -d;
    });
    top.concat(rows, bottom).forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    Array.prototype.forEach.call(head.cells, function (th, col) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th, col); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, th, col); }
      });
    });
  });
  /* the name columns after the first (a leaderboard's rank and system) stay in view beside it when
     a table scrolls sideways: each is pinned at the summed width of the name columns before it,
     as long as they take at most half of the table's box (on a phone the numbers need the room) */
  function pinNames() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-wrap > table"), function (table) {
      var first = table.tBodies[0] && table.tBodies[0].rows[0], keys = 0, lefts = [], x = 0;
      if (!first) { return; }
      while (keys < first.cells.length && first.cells[keys].tagName === "TH") { keys++; }
      var rows = Array.prototype.slice.call(table.tBodies[0].rows);
      if (table.tHead) { rows.push(table.tHead.rows[table.tHead.rows.length - 1]); }
      rows.forEach(function (r) {
        for (var j = 1; j < keys && j < r.cells.length; j++) {
          r.cells[j].style.left = ""; r.cells[j].style.position = ""; r.cells[j].style.boxShadow = "";
        }
      });
      if (keys < 2) { return; }
      for (var j = 0; j < keys; j++) { lefts.push(x); x += first.cells[j].getBoundingClientRect().width; }
      if (x > table.parentNode.clientWidth / 2) { return; }
      rows.forEach(function (r) {
        for (var j = 1; j < keys && j < r.cells.length; j++) {
          r.cells[j].style.position = "sticky";
          r.cells[j].style.left = lefts[j] + "px";
          if (j === keys - 1) { r.cells[j].style.boxShadow = "1px 0 0 var(--rule)"; }
        }
      });
    });
  }
  pinNames();
  window.addEventListener("resize", pinNames);
  /* printing: open the folded sections, and shrink a table wider than the paper to fit it
     (PAPER: CSS pixels between the margins of A4 or Letter paper) */
  var PAPER = 660;
  var wraps = function () { return Array.prototype.slice.call(document.querySelectorAll(".table-wrap")); };
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
    wraps().forEach(function (w) {
      var t = w.firstElementChild, room = Math.min(w.parentNode.clientWidth, PAPER);
      if (t && t.scrollWidth > room) { t.style.zoom = Math.max(room / t.scrollWidth, 0.4).toFixed(3); }
    });
  });
  window.addEventListener("afterprint", function () {
    wraps().forEach(function (w) { if (w.firstElementChild) { w.firstElementChild.style.zoom = ""; } });
  });
})();
