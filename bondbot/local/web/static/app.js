"use strict";
// The page of `bondbot try`: one user's view of the local Discord stand-in, kept up to date
// by server-sent events; every act goes to /api/act as that user. No dependencies.
(() => {
  const params = new URLSearchParams(location.search);
  const auth = new URLSearchParams();
  if (params.get("as")) auth.set("as", params.get("as"));
  if (params.get("t")) auth.set("t", params.get("t"));
  const q = (path) => path + (path.includes("?") ? "&" : "?") + auth.toString();
  const $ = (id) => document.getElementById(id);

  const S = { me: null, users: [], channels: [], members: [], roles: [], commands: [], modal: null,
    messages: new Map(), nodes: new Map(), current: null, dismissed: new Set(), guild: null };
  // Click-to-drawn times for this page (the browser tests and the bench read them).
  const perf = { timings: [], pending: new Map(), drawn: new Map() };
  window.__bondbot = perf;

  const WORDS = {
    en: { only: "Only you can see this", dismiss: "Dismiss message", thinking: "BondBot is thinking…",
      used: "used", cancel: "Cancel", submit: "Submit", failed: "This interaction failed",
      edited: "(edited)", app: "APP", choose: "Make a selection", ok: "OK", placeholder: "Type / for a command" },
    fr: { only: "Vous seul pouvez voir ceci", dismiss: "Ignorer le message", thinking: "BondBot réfléchit…",
      used: "a utilisé", cancel: "Annuler", submit: "Envoyer", failed: "Cette interaction a échoué",
      edited: "(modifié)", app: "APP", choose: "Faites un choix", ok: "OK", placeholder: "Tapez / pour une commande" },
  };
  const w = (key) => (WORDS[(S.me && S.me.locale || "en").slice(0, 2)] || WORDS.en)[key];

  // -- text ------------------------------------------------------------------------------------
  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  function inline(s) {
    return s
      .replace(/`([^`\n]+)`/g, (_, c) => `<span class="md-code">${c}</span>`)
      .replace(/\*\*([\s\S]+?)\*\*/g, "<b>$1</b>")
      .replace(/__([\s\S]+?)__/g, "<u>$1</u>")
      .replace(/(^|[^*\w])\*([^*\n]+?)\*(?!\*)/g, "$1<i>$2</i>")
      .replace(/(^|\W)_([^_\n]+?)_(?!\w)/g, "$1<i>$2</i>")
      .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
      .replace(/\|\|([\s\S]+?)\|\|/g, "$1")
      .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>')
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${esc(memberName(id))}</span>`)
      .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id) => `<span class="mention">@${esc(roleName(id))}</span>`)
      .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${esc(channelName(id))}</span>`)
      .replace(/&lt;t:(\d+)(?::([tTdDfFR]))?&gt;/g, (_, ts, style) => esc(stamp(+ts, style)));
  }
  function md(text) {
    const parts = esc(text).split(/```(?:[a-z]*\n)?([\s\S]*?)```/);
    return parts.map((part, i) => {
      if (i % 2) return `<pre class="md-block">${part}</pre>`;
      return part.split("\n").map((line) => {
        let m;
        if ((m = line.match(/^#{1,3} (.*)$/))) return `<span class="md-h">${inline(m[1])}</span>`;
        if ((m = line.match(/^-# (.*)$/))) return `<span class="subtext">${inline(m[1])}</span>`;
        if ((m = line.match(/^&gt; ?(.*)$/))) return `<span class="md-quote">${inline(m[1])}</span>`;
        return inline(line);
      }).join("\n");
    }).join("");
  }
  function stamp(seconds, style) {
    const d = new Date(seconds * 1000);
    if (style === "R") {
      const diff = Math.round((d - Date.now()) / 1000);
      const rtf = new Intl.RelativeTimeFormat(S.me ? S.me.locale : "en", { numeric: "auto" });
      if (Math.abs(diff) < 60) return rtf.format(diff, "second");
      if (Math.abs(diff) < 3600) return rtf.format(Math.round(diff / 60), "minute");
      return rtf.format(Math.round(diff / 3600), "hour");
    }
    return d.toLocaleString(S.me ? S.me.locale : "en");
  }
  const memberName = (id) => (S.members.find((m) => m.id === id) || { name: id }).name;
  const roleName = (id) => (S.roles.find((r) => r.id === id) || { name: id }).name;
  const channelName = (id) => (S.channels.find((c) => c.id === id) || { name: id }).name;
  const localized = (obj, key) => (obj[key + "_localizations"] || {})[S.me.locale] || obj[key] || "";
  const byId = (a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "html") node.innerHTML = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children || []) if (c) node.append(c);
    return node;
  }
  const fileUrl = (id) => q(`files/${id}`);
  function emoji(e) { return e ? (e.id ? "" : (e.name || "") + " ") : ""; }

  // -- acts ------------------------------------------------------------------------------------
  let toastTimer = null;
  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
  }
  async function act(body, kind) {
    const t0 = performance.now();
    let answer;
    try {
      const res = await fetch(q("api/act"), { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body) });
      answer = await res.json();
    } catch (err) {
      toast(w("failed"));
      return { ok: false, error: String(err) };
    }
    if (!answer.ok) {
      if (kind !== "modal") toast(`${w("failed")}: ${answer.error}`);
      return answer;
    }
    const id = answer.interaction_id;
    if (id && kind !== "autocomplete") {
      if (perf.drawn.has(id)) record(kind, perf.drawn.get(id) - t0);
      else perf.pending.set(id, { t0, kind });
    }
    return answer;
  }
  function record(kind, ms) { perf.timings.push({ kind, ms: Math.max(0, ms) }); }

  // -- messages --------------------------------------------------------------------------------
  function renderComponents(msg, comps, into) {
    for (const c of comps || []) {
      if (c.type === 1) {
        const row = el("div", { class: "row" });
        renderComponents(msg, c.components, row);
        into.append(row);
      } else if (c.type === 2) into.append(button(msg, c));
      else if ([3, 5, 6, 7, 8].includes(c.type)) into.append(menu(msg, c));
      else if (c.type === 10) into.append(el("div", { class: "content", html: md(c.content || "") }));
      else if (c.type === 17 || c.type === 9) {
        const box = el("div", { class: c.type === 17 ? "embed" : "" });
        renderComponents(msg, c.components, box);
        if (c.accessory) renderComponents(msg, [c.accessory], box);
        into.append(box);
      } else if (c.type === 12) {
        for (const item of c.items || []) into.append(el("div", { class: "attachment" }, [media(msg, item.media && item.media.url)]));
      } else if (c.type === 11) into.append(media(msg, c.media && c.media.url));
      else if (c.type === 14) into.append(el("hr"));
    }
  }
  function media(msg, url) {
    const src = imageUrl(msg, url);
    return src ? el("img", { src, alt: "" }) : null;
  }
  function button(msg, c) {
    const label = emoji(c.emoji) + (c.label || "");
    if (c.style === 5 || c.url) {
      return el("a", { class: "btn s5", href: c.url, target: "_blank", rel: "noopener", text: label + " ↗" });
    }
    const b = el("button", { class: `btn s${c.style || 2}`, type: "button", disabled: !!c.disabled,
      "data-custom-id": c.custom_id, text: label });
    b.addEventListener("click", async () => {
      b.classList.add("busy");
      await act({ kind: "click", message_id: msg.id, custom_id: c.custom_id }, "click");
      b.classList.remove("busy");
    });
    return b;
  }
  function menu(msg, c) {
    const multi = (c.max_values || 1) > 1;
    const s = el("select", { class: "menu", disabled: !!c.disabled, "data-custom-id": c.custom_id, multiple: multi });
    if (!multi) s.append(el("option", { value: "", text: c.placeholder || w("choose"), disabled: true, selected: true }));
    for (const o of optionsOf(c)) {
      s.append(el("option", { value: o.value, text: emoji(o.emoji) + o.label + (o.description ? ` — ${o.description}` : ""),
        selected: multi && !!o.default }));
    }
    const send = async () => {
      const values = Array.from(s.selectedOptions).map((o) => o.value).filter((v) => v !== "");
      await act({ kind: "click", message_id: msg.id, custom_id: c.custom_id, values }, "select");
    };
    if (!multi) { s.addEventListener("change", send); return s; }
    return el("div", { class: "row" }, [s, el("button", { class: "btn s1", type: "button", text: w("ok"), onclick: send })]);
  }
  function optionsOf(c) {
    if (c.type === 3) return c.options || [];
    if (c.type === 5 || c.type === 7) return S.members.filter((m) => !m.bot).map((m) => ({ value: m.id, label: m.name }));
    if (c.type === 6) return S.roles.map((r) => ({ value: r.id, label: r.name }));
    if (c.type === 8) return S.channels.map((ch) => ({ value: ch.id, label: "#" + ch.name }));
    return [];
  }
  function imageUrl(msg, url) {
    if (!url) return null;
    if (url.startsWith("attachment://")) {
      const name = url.slice(13);
      const att = msg.attachments.find((a) => a.filename === name);
      return att ? fileUrl(att.id) : null;
    }
    const m = url.match(/\/attachments\/\d+\/(\d+)\//);
    if (m) return fileUrl(m[1]);
    return null; // nothing is fetched from outside the stand-in
  }
  function embedNode(msg, e) {
    const color = e.color != null ? "#" + e.color.toString(16).padStart(6, "0") : null;
    const node = el("div", { class: "embed", style: color ? `border-left-color:${color}` : null });
    const thumb = e.thumbnail && imageUrl(msg, e.thumbnail.url);
    if (thumb) node.append(el("img", { class: "e-thumb", src: thumb, alt: "" }));
    if (e.author && e.author.name) node.append(el("div", { class: "e-author", text: e.author.name }));
    if (e.title) node.append(el("div", { class: "e-title", html: inline(esc(e.title)) }));
    if (e.description) node.append(el("div", { class: "e-desc", html: md(e.description) }));
    if (e.fields && e.fields.length) {
      const fields = el("div", { class: "e-fields" });
      for (const f of e.fields) {
        fields.append(el("div", { class: "e-field" + (f.inline ? " inline" : "") },
          [el("b", { html: inline(esc(f.name)) }), el("div", { html: md(f.value) })]));
      }
      node.append(fields);
    }
    const image = e.image && imageUrl(msg, e.image.url);
    if (image) node.append(el("img", { class: "e-image", src: image, alt: e.image.description || "" }));
    const foot = [e.footer && e.footer.text, e.timestamp && new Date(e.timestamp).toLocaleString(S.me.locale)].filter(Boolean);
    if (foot.length) node.append(el("div", { class: "e-footer", text: foot.join(" • ") }));
    return node;
  }
  function messageNode(msg) {
    const node = el("div", { class: "msg" + (msg.ephemeral ? " ephemeral" : ""), "data-id": msg.id });
    if (msg.interaction && msg.interaction.name) {
      node.append(el("div", { class: "used", text: `${msg.interaction.user} ${w("used")} /${msg.interaction.name}` }));
    }
    node.append(el("div", { class: "avatar", text: (msg.author.name || "?").slice(0, 1).toUpperCase() }));
    const head = el("div", {}, [el("span", { class: "author", text: msg.author.name })]);
    if (msg.author.bot) head.append(el("span", { class: "tag", text: w("app") }));
    head.append(el("span", { class: "time", text: new Date(msg.timestamp).toLocaleTimeString(S.me.locale, { hour: "2-digit", minute: "2-digit" }) }));
    node.append(head);
    if (msg.loading) node.append(el("div", { class: "thinking", text: w("thinking") }));
    if (msg.content) {
      const content = el("div", { class: "content", html: md(msg.content) });
      if (msg.edited) content.append(el("span", { class: "edited", text: w("edited") }));
      node.append(content);
    }
    const drawnInEmbeds = new Set();
    for (const e of msg.embeds || []) {
      for (const part of [e.image, e.thumbnail]) {
        if (part && part.url && part.url.startsWith("attachment://")) drawnInEmbeds.add(part.url.slice(13));
      }
      node.append(embedNode(msg, e));
    }
    for (const a of msg.attachments) {
      if (drawnInEmbeds.has(a.filename)) continue;
      const url = fileUrl(a.id);
      const box = el("div", { class: "attachment" });
      if ((a.content_type || "").startsWith("image/")) box.append(el("img", { src: url, alt: a.description || a.filename }));
      else box.append(el("a", { href: url, download: a.filename, text: `📎 ${a.filename}` }));
      node.append(box);
    }
    renderComponents(msg, msg.components, node);
    if (msg.ephemeral) {
      node.append(el("div", { class: "only" }, [
        document.createTextNode(`👁 ${w("only")} · `),
        el("a", { text: w("dismiss"), onclick: () => { S.dismissed.add(msg.id); node.remove(); } }),
      ]));
    }
    return node;
  }

  // -- the view --------------------------------------------------------------------------------
  function renderChannels() {
    const list = $("channels");
    list.replaceChildren();
    const tops = S.channels.filter((c) => !c.thread).sort((a, b) => a.position - b.position);
    for (const top of tops) {
      list.append(channelItem(top));
      for (const th of S.channels.filter((c) => c.thread && c.parent_id === top.id)) list.append(channelItem(th));
    }
    const current = S.channels.find((c) => c.id === S.current);
    $("channel-name").textContent = current ? current.name : "";
    $("hash").textContent = current && current.thread ? "↳" : "#";
  }
  function channelItem(c) {
    return el("li", { class: (c.thread ? "thread" : "") + (c.id === S.current ? " current" : ""), "data-channel": c.id,
      "data-name": c.name, text: c.name, onclick: () => { S.current = c.id; renderChannels(); renderMessages(); } });
  }
  function atBottom() { const s = $("scroller"); return s.scrollHeight - s.scrollTop - s.clientHeight < 80; }
  // A picture that loads after its message was drawn keeps a reader at the bottom there.
  let stick = true;
  $("scroller").addEventListener("scroll", () => { stick = atBottom(); });
  document.addEventListener("load", (ev) => { if (ev.target.tagName === "IMG" && stick) scrollDown(); }, true);
  function scrollDown() { const s = $("scroller"); s.scrollTop = s.scrollHeight; }
  function renderMessages() {
    const box = $("messages");
    const ids = [...S.messages.keys()].filter((id) => S.messages.get(id).channel_id === S.current && !S.dismissed.has(id)).sort(byId);
    box.replaceChildren(...ids.map((id) => nodeOf(id)));
    scrollDown();
  }
  function nodeOf(id) {
    if (!S.nodes.has(id)) S.nodes.set(id, messageNode(S.messages.get(id)));
    return S.nodes.get(id);
  }
  function placeMessage(id) {
    const msg = S.messages.get(id);
    const old = S.nodes.get(id);
    S.nodes.delete(id);
    if (msg.channel_id !== S.current || S.dismissed.has(id)) { if (old) old.remove(); return; }
    const node = nodeOf(id);
    if (old && old.isConnected) { old.replaceWith(node); return; }
    const box = $("messages");
    const after = [...box.children].find((n) => byId(n.dataset.id, id) > 0);
    box.insertBefore(node, after || null);
  }
  function apply(update) {
    for (const key of ["me", "users", "channels", "members", "roles", "commands", "guild"]) {
      if (key in update) S[key] = update[key];
    }
    if (update.me || update.users) renderMe();
    if (update.channels) {
      if (!S.current || !S.channels.some((c) => c.id === S.current)) {
        const first = S.channels.find((c) => !c.thread);
        S.current = first ? first.id : null;
      }
      renderChannels();
    }
    if (update.guild) $("guild").textContent = update.guild.name;
    if ("modal" in update) { S.modal = update.modal; renderModal(); }
    for (const msg of update.upsert || []) {
      S.messages.set(msg.id, msg);
      placeMessage(msg.id);
    }
    for (const id of update.remove || []) {
      S.messages.delete(id);
      const node = S.nodes.get(id);
      if (node) node.remove();
      S.nodes.delete(id);
    }
    if (update.channels && !update.upsert) renderMessages();
    if (stick) scrollDown();  // a reader who scrolled up to read stays where he is
    if (update.acks) {
      requestAnimationFrame(() => {
        const t = performance.now();
        for (const id of update.acks) {
          const started = perf.pending.get(id);
          if (started) { perf.pending.delete(id); record(started.kind, t - started.t0); } else perf.drawn.set(id, t);
        }
      });
    }
  }
  function renderMe() {
    $("me").textContent = S.me.shown;
    document.documentElement.lang = S.me.locale.slice(0, 2);
    $("command").placeholder = w("placeholder");
    const sw = $("switch");
    sw.hidden = S.users.length < 2;
    sw.replaceChildren(...S.users.map((u) => el("option", { value: u, text: u, selected: u === S.me.name })));
  }
  $("switch").addEventListener("change", (ev) => { location.search = "?as=" + encodeURIComponent(ev.target.value); });

  // -- forms (modals) --------------------------------------------------------------------------
  function renderModal() {
    const overlay = $("overlay");
    const form = $("modal");
    if (!S.modal) { overlay.hidden = true; form.replaceChildren(); form.dataset.id = ""; return; }
    if (form.dataset.id === S.modal.interaction_id) return;
    form.dataset.id = S.modal.interaction_id;
    const fields = el("div");
    modalFields(S.modal.components, fields, null);
    form.replaceChildren(el("h2", { text: S.modal.title }), el("div", { class: "error", hidden: true }), fields,
      el("div", { class: "actions" }, [
        el("button", { class: "btn s2", type: "button", text: w("cancel"), onclick: () => {
          act({ kind: "close_modal", interaction_id: S.modal.interaction_id }, "close_modal");
          S.modal = null; renderModal(); } }),
        el("button", { class: "btn s1", type: "submit", text: w("submit") }),
      ]));
    overlay.hidden = false;
    const first = form.querySelector("input, textarea, select");
    if (first) first.focus();
  }
  function modalFields(comps, into, label) {
    for (const c of comps || []) {
      if (c.type === 1) modalFields(c.components, into, null);
      else if (c.type === 18) modalFields([c.component], into, { label: c.label, description: c.description });
      else if (c.type === 10) into.append(el("div", { class: "content", html: md(c.content || "") }));
      else if (c.custom_id) into.append(modalField(c, label || { label: c.label }));
    }
  }
  function modalField(c, label) {
    const required = c.required !== false;
    let input;
    if (c.type === 4) {
      const attrs = { name: c.custom_id, "data-custom-id": c.custom_id, placeholder: c.placeholder, required,
        minlength: c.min_length, maxlength: c.max_length };
      input = c.style === 2 ? el("textarea", { ...attrs, rows: 4 }) : el("input", { ...attrs, type: "text" });
      if (c.value) input.value = c.value;
    } else {
      const multi = (c.max_values || 1) > 1;
      input = el("select", { name: c.custom_id, "data-custom-id": c.custom_id, multiple: multi, required });
      if (!multi) input.append(el("option", { value: "", text: c.placeholder || w("choose"), disabled: true, selected: !optionsOf(c).some((o) => o.default) }));
      for (const o of optionsOf(c)) input.append(el("option", { value: o.value, text: emoji(o.emoji) + o.label, selected: !!o.default }));
    }
    input.dataset.kind = c.type === 4 ? "text" : "select";
    return el("label", { class: "field" }, [
      el("span", { html: esc(label.label || "") + (required ? " <i>*</i>" : "") }),
      label.description ? el("small", { text: label.description }) : null, input]);
  }
  $("modal").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = $("modal");
    const values = {};
    for (const input of form.querySelectorAll("[data-custom-id]")) {
      const id = input.dataset.customId;
      if (input.dataset.kind === "text") { if (input.value !== "") values[id] = input.value; }
      else values[id] = Array.from(input.selectedOptions).map((o) => o.value).filter((v) => v !== "");
    }
    const modal = S.modal;
    if (!modal) return;
    const answer = await act({ kind: "modal", interaction_id: modal.interaction_id, values }, "modal");
    if (answer.ok) { if (S.modal === modal) { S.modal = null; renderModal(); } return; }
    const error = form.querySelector(".error");
    error.textContent = answer.error;
    error.hidden = false;
  });

  // -- slash commands --------------------------------------------------------------------------
  const SUB = [1, 2];
  let picked = null; // { path: [names], node }
  let suggestions = [];
  let selected = 0;
  function leafPaths() {
    const out = [];
    const walk = (node, names, shown) => {
      const subs = (node.options || []).filter((o) => SUB.includes(o.type));
      if (!subs.length) { out.push({ path: names, shown, node }); return; }
      for (const s of subs) walk(s, [...names, s.name], [...shown, localized(s, "name")]);
    };
    for (const cmd of S.commands) if ((cmd.type || 1) === 1) walk(cmd, [cmd.name], [localized(cmd, "name")]);
    return out;
  }
  function onType() {
    const text = $("command").value;
    if (picked && !text.startsWith("/" + picked.shown.join(" "))) { picked = null; $("options").hidden = true; }
    if (picked || !text.startsWith("/")) { $("suggest").hidden = true; return; }
    const typed = text.slice(1).toLowerCase().trim();
    suggestions = leafPaths().filter((p) => p.path.join(" ").startsWith(typed) || p.shown.join(" ").toLowerCase().startsWith(typed)).slice(0, 25);
    selected = 0;
    drawSuggestions();
  }
  function drawSuggestions() {
    const box = $("suggest");
    box.replaceChildren(...suggestions.map((p, i) => el("div", { class: i === selected ? "on" : "", "data-path": p.path.join(" "),
      onmousedown: (ev) => { ev.preventDefault(); pick(p); } },
      [document.createTextNode("/" + p.shown.join(" ")), el("small", { text: localized(p.node, "description") })])));
    box.hidden = !suggestions.length;
  }
  function pick(p) {
    picked = p;
    $("command").value = "/" + p.shown.join(" ") + " ";
    $("suggest").hidden = true;
    drawOptions();
  }
  function drawOptions() {
    const box = $("options");
    const opts = picked.node.options || [];
    box.replaceChildren();
    for (const o of opts) {
      const label = el("label", { html: esc(localized(o, "name")) + (o.required ? " <i>*</i>" : ""), title: localized(o, "description") });
      box.append(label, optionInput(o));
    }
    box.hidden = !opts.length;
    const first = box.querySelector("input, select");
    if (first) first.focus();
  }
  function optionInput(o) {
    const attrs = { "data-option": o.name, "data-type": o.type, placeholder: localized(o, "description") };
    if (o.choices && o.choices.length) {
      const s = el("select", attrs);
      s.append(el("option", { value: "", text: "—" }));
      for (const c of o.choices) s.append(el("option", { value: JSON.stringify(c.value), text: localized(c, "name") }));
      return s;
    }
    if (o.type === 5) return el("select", attrs, [el("option", { value: "", text: "—" }), el("option", { value: "true", text: "True" }), el("option", { value: "false", text: "False" })]);
    if ([6, 7, 8, 9].includes(o.type)) {
      const list = o.type === 7 ? S.channels.map((c) => ({ value: c.id, label: "#" + c.name }))
        : o.type === 8 ? S.roles.map((r) => ({ value: r.id, label: "@" + r.name }))
        : S.members.filter((m) => !m.bot).map((m) => ({ value: m.id, label: "@" + m.name }));
      return el("select", attrs, [el("option", { value: "", text: "—" }), ...list.map((i) => el("option", { value: JSON.stringify(i.value), text: i.label }))]);
    }
    if (o.type === 11) return el("input", { ...attrs, type: "file" });
    const input = el("input", { ...attrs, type: [4, 10].includes(o.type) ? "number" : "text", step: o.type === 10 ? "any" : null,
      min: o.min_value, max: o.max_value, maxlength: o.max_length });
    if (o.autocomplete) {
      const list = el("datalist", { id: `ac-${o.name}` });
      input.setAttribute("list", list.id);
      input.after(list);
      let seq = 0;
      input.addEventListener("input", async () => {
        const mine = ++seq;
        const answer = await act({ kind: "autocomplete", channel_id: S.current, path: picked.path.join(" "),
          options: collect(false), focused: o.name, value: input.value }, "autocomplete");
        if (mine !== seq || !answer.ok) return;
        const dl = document.getElementById(list.id) || list;
        dl.replaceChildren(...answer.choices.map((c) => el("option", { value: String(c.value), text: localized(c, "name") })));
        if (!dl.isConnected) input.after(dl);
      });
      input.addEventListener("focus", () => input.dispatchEvent(new Event("input")), { once: true });
    }
    return input;
  }
  function collect(withFiles) {
    const out = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const type = +input.dataset.type;
      if (type === 11) { if (withFiles && input.files.length) out[input.dataset.option] = input.files[0]; continue; }
      if (input.value === "") continue;
      let v = input.value;
      if (input.tagName === "SELECT") v = type === 5 ? v === "true" : JSON.parse(v);
      else if (type === 4) v = parseInt(v, 10);
      else if (type === 10) v = parseFloat(v);
      out[input.dataset.option] = v;
    }
    return out;
  }
  async function sendCommand() {
    if (!picked) { if (suggestions.length) pick(suggestions[selected]); return; }
    const options = collect(true);
    for (const [name, v] of Object.entries(options)) {
      if (v instanceof File) {
        const data = new Uint8Array(await v.arrayBuffer());
        let bin = "";
        for (let i = 0; i < data.length; i += 0x8000) bin += String.fromCharCode(...data.subarray(i, i + 0x8000));
        options[name] = { filename: v.name, content_type: v.type, data: btoa(bin) };
      }
    }
    const path = picked.path.join(" ");
    const answer = await act({ kind: "slash", channel_id: S.current, path, options }, "slash");
    if (answer.ok) { picked = null; $("command").value = ""; $("options").hidden = true; }
  }
  $("command").addEventListener("input", onType);
  $("command").addEventListener("keydown", (ev) => {
    if ($("suggest").hidden) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      selected = (selected + (ev.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
      drawSuggestions();
    } else if (ev.key === "Tab") { ev.preventDefault(); pick(suggestions[selected]); }
  });
  $("composer").addEventListener("submit", (ev) => { ev.preventDefault(); sendCommand(); });

  // -- pushes ----------------------------------------------------------------------------------
  function connect() {
    const source = new EventSource(q("api/events"));
    source.onopen = () => $("live").classList.add("on");
    source.onmessage = (ev) => apply(JSON.parse(ev.data));
    source.onerror = () => { $("live").classList.remove("on"); };
  }
  connect();
})();
