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
