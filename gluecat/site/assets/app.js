// The catalog site: pages drawn in the browser from the data files beside this one. Nothing is
// fetched from the network; data arrives as <script> files, which a page opened from disk may load.
"use strict";

const GLUECAT = (() => {
  let catalog = null;
  let index = null; // search entries, loaded at the first search
  const pages = new Map(); // page number -> table data, loaded when its page opens
  const waiting = new Map(); // page number -> callbacks
  let searchWaiting = [];
  const byId = new Map(); // db.table -> page number

  // DOM helper: text is always set as text, never parsed as HTML.
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const svgNs = "http://www.w3.org/2000/svg";
  function s(tag, attrs, ...children) {
    const node = document.createElementNS(svgNs, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function load(src) {
    const script = document.createElement("script");
    script.src = src;
    document.head.append(script);
  }
  function withPage(number, then) {
    if (pages.has(number)) return then(pages.get(number));
    if (!waiting.has(number)) {
      waiting.set(number, []);
      load(`data/t/${number}.js`);
    }
    waiting.get(number).push(then);
  }
  function withIndex(then) {
    if (index) return then(index);
    if (searchWaiting.length === 0) load("data/search.js");
    searchWaiting.push(then);
  }

  const tableHref = (id) => `#/t/${encodeURIComponent(id)}`;
  const dbHref = (name) => `#/db/${encodeURIComponent(name)}`;
  function objectLink(id) {
    return byId.has(id) ? h("a", { href: tableHref(id) }, id) : h("span", { class: "unresolved", title: "not in this catalog" }, id);
  }
  function columnLink(ref) {
    const at = ref.lastIndexOf(".");
    const table = ref.slice(0, at);
    return byId.has(table) ? h("a", { href: tableHref(table) }, ref) : h("span", { class: "unresolved" }, ref);
  }
  function badge(kind, unmanaged) {
    return [h("span", { class: `badge ${kind === "view" ? "view" : ""}` }, kind), unmanaged ? h("span", { class: "badge unmanaged" }, "unmanaged") : null];
  }
  function definitionList(pairs) {
    const shown = pairs.filter(([, value]) => value !== null && value !== undefined && value !== "");
    return shown.length ? h("dl", null, shown.map(([key, value]) => [h("dt", null, key), h("dd", null, value)])) : null;
  }
  function pretty(value) {
    if (value === null || typeof value !== "object") return String(value);
    return h("code", null, JSON.stringify(value));
  }
  function main(...children) {
    const node = document.getElementById("main");
    node.replaceChildren(...children.flat(Infinity).filter(Boolean));
    window.scrollTo(0, 0);
  }

  function nav() {
    const items = catalog.databases.map((db) =>
      h("a", { href: dbHref(db.name) }, db.name, h("span", { class: "count" }, db.tables.length)),
    );
    document.getElementById("nav").replaceChildren(h("strong", null, "Databases"), ...items);
  }

  function home() {
    const c = catalog.catalog;
    const tables = catalog.databases.reduce((n, db) => n + db.tables.length, 0);
    const rows = catalog.databases.map((db) =>
      h("tr", null, h("td", null, h("a", { href: dbHref(db.name) }, db.name), db.unmanaged ? badge("database", true)[1] : null),
        h("td", null, db.tables.length), h("td", null, db.description || ""), h("td", null, h("code", null, db.file || ""))),
    );
    main(
      h("h1", null, c.name),
      h("p", { class: "meta" }, `${c.backend} catalog`, c.region ? ` in ${c.region}` : "", c.environment ? `, environment ${c.environment}` : "",
        ` · ${catalog.databases.length} databases · ${tables} tables and views`, c.live ? " · with the live catalog" : " · from the project files"),
      h("table", null, h("tr", null, h("th", null, "Database"), h("th", null, "Tables"), h("th", null, "Description"), h("th", null, "File")), rows),
      c.lf_tags ? [h("h2", null, "Lake Formation tags"), definitionList(Object.entries(c.lf_tags).map(([k, v]) => [k, v.join(", ")]))] : null,
      c.tag_grants && c.tag_grants.length ? [h("h2", null, "Tag-based grants"), tagGrants(c.tag_grants)] : null,
    );
  }

  function tagGrants(grants) {
    return h("table", null, h("tr", null, h("th", null, "Principal"), h("th", null, "Permissions"), h("th", null, "Expression")),
      grants.map((g) => h("tr", null, h("td", null, g.principal), h("td", null, (g.permissions || []).join(", ")), h("td", null, pretty(g.expression || g)))));
  }

  const PAGE_ROWS = 100; // a database's tables are drawn a page at a time: 1,000 rows would slow the page
  function database(name, pageNo) {
    const db = catalog.databases.find((d) => d.name === name);
    if (!db) return notFound(name);
    const pagesOf = Math.max(1, Math.ceil(db.tables.length / PAGE_ROWS));
    const page = Math.min(Math.max(1, pageNo || 1), pagesOf);
    const first = (page - 1) * PAGE_ROWS;
    const rows = db.tables.slice(first, first + PAGE_ROWS).map(([table, , kind, description, columns, unmanaged]) =>
      h("tr", null, h("td", null, h("a", { href: tableHref(`${db.name}.${table}`) }, table), badge(kind, unmanaged)),
        h("td", null, columns), h("td", null, description)),
    );
    const pageLink = (n, label) => n >= 1 && n <= pagesOf && n !== page ? h("a", { href: `${dbHref(db.name)}/${n}` }, label) : h("span", { class: "muted" }, label);
    const pager = pagesOf > 1 ? h("p", { class: "pager" }, pageLink(page - 1, "‹ Previous"), ` Rows ${(first + 1).toLocaleString("en")}–${Math.min(first + PAGE_ROWS, db.tables.length).toLocaleString("en")} of ${db.tables.length.toLocaleString("en")} (page ${page} of ${pagesOf}) `, pageLink(page + 1, "Next ›")) : null;
    main(
      h("h1", null, db.name, db.unmanaged ? badge("database", true)[1] : null),
      h("p", null, db.description || ""),
      definitionList([["Owner", db.owner], ["Location", db.location], ["File", db.file ? h("code", null, db.file) : null]]),
      databaseAccess(db.access), details(db.details), live(db.live),
      h("h2", null, `Tables and views (${db.tables.length})`),
      pager,
      h("table", { id: "tables" }, h("tr", null, h("th", null, "Name"), h("th", null, "Columns"), h("th", null, "Description")), rows),
      pager ? pager.cloneNode(true) : null,
    );
  }

  // Grants on the database itself: what principals may do with it (none of it reads a table's rows).
  function databaseAccess(grants) {
    if (!grants || !grants.length) return null;
    return [h("h2", null, "Access to the database"), h("table", { id: "database-access" },
      h("tr", null, h("th", null, "Principal"), h("th", null, "Permissions"), h("th", null, "Through"), h("th", null, "Source")),
      grants.map((g) => h("tr", null, h("td", null, h("code", null, g.principal)),
        h("td", null, g.permissions.join(", "), g.grantable.length ? h("span", { class: "muted" }, ` (may grant ${g.grantable.join(", ")})`) : null),
        h("td", null, g.through), h("td", null, g.source.join(", ")))))];
  }

  function optimizersSection(list) {
    if (!list || !list.length) return null;
    const words = (key) => key.replace(/_/g, " ");
    return [h("h2", null, "Optimizers"), h("table", { id: "optimizers" },
      h("tr", null, h("th", null, "Optimizer"), h("th", null, "Runs"), h("th", null, "Settings"), h("th", null, "Role")),
      list.map((o) => h("tr", null, h("td", null, words(o.type)),
        h("td", null, o.enabled ? "yes" : "no (kept, not run)"),
        h("td", null, Object.keys(o.settings).length ? Object.entries(o.settings).map(([k, v]) => `${words(k)}: ${v}`).join("; ") : h("span", { class: "muted" }, "Glue's defaults")),
        h("td", null, h("code", null, o.role), o.vpc_connection ? ` via ${o.vpc_connection}` : null))))];
  }

  function columnsTable(columns, feeds, reads, partitionKeys) {
    const keyNames = new Set((partitionKeys || []).map((c) => c.name));
    const all = [...columns, ...(partitionKeys || [])];
    const header = h("tr", null, h("th", null, "Column"), h("th", null, "Type"), h("th", null, "Comment"),
      reads ? h("th", null, "Reads") : h("th", null, "Feeds"));
    return h("table", { class: "columns" }, header, all.map((c) => {
      const tags = c.lf_tags ? Object.entries(c.lf_tags).map(([k, v]) => h("span", { class: "badge" }, `${k}=${v}`)) : [];
      let flow;
      if (reads) {
        const sources = (reads.columns || {})[c.name] || [];
        const unknown = (reads.unresolved_columns || {})[c.name] || [];
        flow = [sources.map((ref) => [columnLink(ref), " "]), unknown.map((u) => [h("span", { class: "unresolved", title: "unresolved" }, `unresolved: ${u}`), " "])];
      } else {
        flow = ((feeds || {})[c.name] || []).map((ref) => [columnLink(ref), " "]);
      }
      return h("tr", null,
        h("td", null, h("strong", null, c.name), keyNames.has(c.name) ? h("span", { class: "badge" }, "partition key") : null,
          c.required ? h("span", { class: "badge" }, "required") : null, tags),
        h("td", { class: "type" }, c.type), h("td", null, c.comment || ""), h("td", null, flow));
    }));
  }

  function lineageGraph(id, upstream, downstream) {
    const rowH = 30, boxW = 230, gap = 90;
    const rows = Math.max(upstream.length, downstream.length, 1);
    const height = rows * rowH + 20, width = boxW * 3 + gap * 2 + 20;
    const svg = s("svg", { class: "lineage", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `lineage of ${id}` });
    const y = (i, n) => 10 + (rows - n) * rowH / 2 + i * rowH;
    const box = (x, top, label, cls, href) => {
      const short = label.length > 32 ? label.slice(0, 31) + "…" : label;
      const group = s("g", {}, s("rect", { x, y: top, width: boxW, height: rowH - 8, class: cls }), s("text", { x: x + 8, y: top + 15 }, short));
      if (!href) return group;
      const link = s("a", { href }); link.append(group); return link;
    };
    const midX = 10 + boxW + gap, midY = y(0, 1);
    svg.append(box(midX, midY, id, "self", null));
    upstream.forEach((u, i) => {
      const top = y(i, upstream.length), known = byId.has(u);
      svg.append(s("path", { d: `M${10 + boxW},${top + 11} C${midX - 40},${top + 11} ${10 + boxW + 40},${midY + 11} ${midX},${midY + 11}` }));
      svg.append(box(10, top, u, known ? "" : "unresolved", known ? tableHref(u) : null));
    });
    downstream.forEach((d, i) => {
      const top = y(i, downstream.length), x = midX + boxW + gap;
      svg.append(s("path", { d: `M${midX + boxW},${midY + 11} C${x - 40},${midY + 11} ${midX + boxW + 40},${top + 11} ${x},${top + 11}` }));
      svg.append(box(x, top, d, "", tableHref(d)));
    });
    return svg;
  }

  function lineageSection(t) {
    const l = t.lineage || {};
    const upstream = l.upstream || [], downstream = l.downstream || [];
    if (!upstream.length && !downstream.length && !l.reads) return null;
    const reads = l.reads || {};
    return [
      h("h2", null, "Lineage"),
      lineageGraph(t.id, upstream, downstream),
      h("div", { id: "upstream" }, h("strong", null, "Upstream: "), upstream.length ? upstream.map((u) => [objectLink(u), " "]) : h("span", { class: "muted" }, "none")),
      h("div", { id: "downstream" }, h("strong", null, "Downstream: "), downstream.length ? downstream.map((d) => [objectLink(d), " "]) : h("span", { class: "muted" }, "none")),
      reads.error ? h("p", { class: "unresolved" }, `The SQL did not parse: ${reads.error}`) : null,
    ];
  }

  function details(values) {
    if (!values || !Object.keys(values).length) return null;
    return [h("h2", null, "Settings"), definitionList(Object.entries(values).map(([k, v]) => [k, pretty(v)]))];
  }
  function live(values) {
    if (!values) return null;
    const { Versions: versions, Snapshots: snapshots, ...rest } = values;
    return [h("h2", null, "Live catalog"), definitionList(Object.entries(rest).map(([k, v]) => [k, pretty(v)])),
      versionsSection(versions), snapshotsSection(snapshots)];
  }
  function versionsSection(v) {
    if (!v) return null;
    return [h("h2", null, "Versions"), h("p", { id: "versions" }, `${v.count.toLocaleString("en")} version${v.count === 1 ? "" : "s"} kept`,
      v.count > v.latest.length ? `; the latest ${v.latest.length}:` : ":"),
      h("table", { id: "versions-latest" }, h("tr", null, h("th", null, "Version"), h("th", null, "Time")),
        v.latest.map((x) => h("tr", null, h("td", null, x.version), h("td", null, x.time || ""))))];
  }
  function snapshotsSection(s) {
    if (!s) return null;
    if (s.error) return [h("h2", null, "Snapshots"), h("p", { class: "unresolved" }, s.error)];
    const c = s.current || {};
    return [h("h2", null, "Snapshots"),
      h("div", { id: "snapshots" }, definitionList([["Snapshots", s.count.toLocaleString("en")], ["Current snapshot", c.id || "none"],
        ["Time", c.time], ["Operation", c.operation], ["Records added", c.added_records], ["Records in total", c.total_records]])),
      s.latest.length > 1 ? h("table", null, h("tr", null, h("th", null, "Snapshot"), h("th", null, "Time"), h("th", null, "Operation")),
        s.latest.map((x) => h("tr", null, h("td", null, x.id), h("td", null, x.time), h("td", null, x.operation || "")))) : null];
  }
  function partitions(p) {
    if (!p) return null;
    const ranges = Object.entries(p.ranges || {}).map(([key, [low, high]]) => [key, low === high ? low : `${low} … ${high}`]);
    return [h("h2", null, "Partitions"),
      definitionList([["Declared", p.count === undefined ? null : p.count.toLocaleString("en")], ...ranges,
        ["Projection", p.projection ? pretty(p.projection) : null]])];
  }

  // Who can read what: each principal, what it holds, on which columns, and through which grant.
  function accessSection(t) {
    const grants = t.access || [];
    const live = catalog.catalog.live_grants;
    const from = live ? "the project files and Lake Formation" : "the project files";
    if (!grants.length) return [h("h2", null, "Access"), h("p", { class: "muted", id: "access" }, `No Lake Formation grants on this table in ${from}.`)];
    const on = (g) => g.columns ? `columns ${g.columns.join(", ")}` : g.excluded_columns ? `all columns but ${g.excluded_columns.join(", ")}` : "all columns";
    const rows = grants.map((g) => h("tr", null,
      h("td", null, h("code", null, g.principal)),
      h("td", null, g.reads ? h("strong", null, "reads") : h("span", { class: "muted" }, "does not read"), " ", on(g)),
      h("td", null, g.permissions.join(", "), g.grantable.length ? h("span", { class: "muted" }, ` (may grant ${g.grantable.join(", ")})`) : null),
      h("td", null, g.through),
      h("td", null, g.source.join(", "))));
    return [h("h2", null, "Access"),
      h("table", { id: "access" }, h("tr", null, h("th", null, "Principal"), h("th", null, "Reads"), h("th", null, "Permissions"), h("th", null, "Through"), h("th", null, "Source")), rows)];
  }

  function tablePage(t) {
    document.title = t.id;
    main(
      h("h1", null, t.id, badge(t.kind, t.unmanaged)),
      h("p", null, t.description || ""),
      definitionList([["Owner", t.owner || (t.live || {}).Owner], ["Location", t.location], ["File", t.file ? h("code", null, t.file) : null], ["Database", h("a", { href: dbHref(t.database) }, t.database)]]),
      h("h2", null, "Columns"), columnsTable(t.columns || [], (t.lineage || {}).feeds, (t.lineage || {}).reads, t.partition_keys),
      partitions(t.partitions), optimizersSection(t.optimizers), accessSection(t), lineageSection(t),
      t.sql ? [h("h2", null, `SQL${t.dialect ? ` (${t.dialect})` : ""}`), h("pre", null, t.sql)] : null,
      details(t.details), live(t.live),
    );
  }

  function notFound(what) {
    main(h("h1", null, "Not found"), h("p", null, `Nothing here is called ${what}.`));
  }

  function searchPage(query) {
    const input = document.getElementById("search");
    if (input.value !== query) input.value = query;
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return home();
    main(h("p", { class: "muted" }, "Searching…"));
    withIndex((entries) => {
      const hits = [];
      for (const entry of entries) {
        const text = `${entry[2]} ${entry[3]}`.toLowerCase();
        if (words.every((w) => text.includes(w))) hits.push(entry);
        if (hits.length >= 500) break;
      }
      const rank = (e) => (e[2].toLowerCase().endsWith(words[0]) ? 0 : 1);
      hits.sort((a, b) => rank(a) - rank(b));
      const items = hits.map(([what, number, name, text]) => {
        const id = what === "column" ? name.slice(0, name.lastIndexOf(".")) : name;
        const href = what === "database" ? dbHref(name) : tableHref(id);
        return h("li", null, h("span", { class: "badge" }, what), " ", h("a", { href }, name), text ? h("span", { class: "muted" }, ` — ${text}`) : null);
      });
      main(h("h1", null, `Search: ${query}`), h("p", { class: "meta" }, `${hits.length}${hits.length >= 500 ? "+" : ""} found`), h("ul", { class: "results", id: "results" }, items));
    });
  }

  function route() {
    if (!catalog) return;
    const hash = decodeURIComponent(location.hash.slice(1) || "/");
    document.title = catalog.catalog.name;
    if (hash.startsWith("/t/")) {
      const id = hash.slice(3);
      if (!byId.has(id)) return notFound(id);
      return withPage(byId.get(id), (t) => { if (location.hash === tableHref(id) || decodeURIComponent(location.hash.slice(4)) === id) tablePage(t); });
    }
    if (hash.startsWith("/db/")) {
      const [name, page] = hash.slice(4).split("/");
      return database(name, Number(page) || 1);
    }
    if (hash.startsWith("/search/")) return searchPage(hash.slice(8));
    home();
  }

  function start() {
    nav();
    const input = document.getElementById("search");
    let timer = null;
    input.addEventListener("focus", () => withIndex(() => {}), { once: true });
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => { location.hash = `#/search/${encodeURIComponent(input.value)}`; }, 150);
    });
    window.addEventListener("hashchange", route);
    route();
  }

  return {
    catalog(data) {
      catalog = data;
      for (const db of data.databases) for (const t of db.tables) byId.set(`${db.name}.${t[0]}`, t[1]);
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
      else start();
    },
    page(number, data) {
      pages.set(number, data);
      for (const then of waiting.get(number) || []) then(data);
      waiting.delete(number);
    },
    searchIndex(entries) {
      index = entries;
      for (const then of searchWaiting) then(entries);
      searchWaiting = [];
    },
  };
})();
