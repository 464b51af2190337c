// ctx chat: send a message and show the answer as it streams (server-sent events over fetch).
// The CSP forbids inline scripts, so the page opts in with a data-chat form; without this file
// (or without streaming fetch) the form posts normally and the page comes back with the answer.
// Text from the server is put in with textContent; only the `done` event's html, which the
// server rendered and sanitised, is put in as HTML.
(function () {
  "use strict";
  if (window.ctxChat) {
    return; // loaded again by an htmx swap: the document-level listener is already there
  }
  window.ctxChat = true;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function csrfToken(form) {
    if (form.dataset.csrf) return form.dataset.csrf;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || "";
    } catch (e) {
      return "";
    }
  }

  // One SSE message ("event: x\ndata: {...}") as [name, data].
  function parseEvent(chunk) {
    var name = "message";
    var data = [];
    chunk.split("\n").forEach(function (line) {
      if (line.indexOf("event:") === 0) name = line.slice(6).trim();
      else if (line.indexOf("data:") === 0) data.push(line.slice(5).replace(/^ /, ""));
    });
    if (!data.length) return null;
    try {
      return [name, JSON.parse(data.join("\n"))];
    } catch (e) {
      return null;
    }
  }

  // The assistant's message as it is built: tool cards, streamed text, then the answer.
  function Answer(log) {
    this.box = el("div", "msg assistant");
    this.tools = el("div", "tools");
    this.text = el("p", "streaming");
    this.body = el("div", "markdown");
    this.meta = el("p", "muted chat-meta");
    this.body.appendChild(this.text);
    this.box.appendChild(this.tools);
    this.box.appendChild(this.body);
    log.appendChild(this.box);
    this.streamed = "";
    this.cards = [];
  }

  Answer.prototype.token = function (data) {
    this.streamed += data.text || "";
    this.text.textContent = this.streamed;
  };

  Answer.prototype.toolCall = function (data) {
    var card = el("div", "tool-card");
    card.appendChild(el("span", "badge", data.name));
    card.appendChild(document.createTextNode(" "));
    card.appendChild(el("code", "", JSON.stringify(data.arguments)));
    card.appendChild(el("br"));
    var result = el("span", "pending", "running…");
    card.appendChild(result);
    this.tools.appendChild(card);
    this.cards.push({ name: data.name, card: card, result: result, done: false });
    // text said before a tool call was the model thinking aloud: start the answer afresh
    this.streamed = "";
    this.text.textContent = "";
  };

  Answer.prototype.toolResult = function (data) {
    var entry = this.cards.find(function (c) { return !c.done && c.name === data.name; });
    if (!entry) return;
    entry.done = true;
    entry.result.removeAttribute("class");
    entry.result.textContent = data.summary || (data.ok ? "done" : "failed");
    entry.card.querySelector(".badge").classList.add(data.ok ? "ok" : "bad");
  };

  Answer.prototype.done = function (data) {
    if (typeof data.html === "string") {
      this.body.innerHTML = data.html; // rendered and sanitised by the server (markdown + nh3)
    }
    this.meta.textContent = [data.backend, data.model].filter(Boolean).join(" · ");
    this.box.appendChild(this.meta);
  };

  Answer.prototype.error = function (message) {
    var alert = el("p", "alert", message);
    alert.setAttribute("role", "alert");
    this.box.appendChild(alert);
  };

  function remember(form, session) {
    var path = "/chat/" + session;
    form.action = path + "/send";
    form.dataset.session = session;
    if (window.location.pathname !== path) {
      window.history.replaceState(null, "", path);
    }
    var list = document.getElementById("chat-session-list");
    if (list && !list.querySelector('a[href="' + path + '"]')) {
      var item = el("li");
      var link = el("a", "", session);
      link.href = path;
      link.setAttribute("aria-current", "page");
      item.appendChild(link);
      var empty = list.querySelector("li.muted");
      if (empty) empty.remove();
      list.insertBefore(item, list.firstChild);
    }
  }

  async function readEvents(response, handle) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    for (;;) {
      var step = await reader.read();
      if (step.done) break;
      buffer += decoder.decode(step.value, { stream: true }).replace(/\r\n/g, "\n");
      var at;
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        var parsed = parseEvent(buffer.slice(0, at));
        buffer = buffer.slice(at + 2);
        if (parsed) handle(parsed[0], parsed[1]);
      }
    }
  }

  async function send(form) {
    var field = form.querySelector("textarea[name=message]");
    var button = form.querySelector("button[type=submit]");
    var status = document.getElementById("chat-status");
    var log = document.getElementById("chat-log");
    var text = field.value.trim();
    if (!text) return;
    var body = new URLSearchParams(new FormData(form));
    var empty = log.querySelector(".chat-empty");
    if (empty) empty.remove();
    var mine = el("div", "msg user");
    mine.appendChild(el("p", "chat-text", text));
    log.appendChild(mine);
    var answer = new Answer(log);
    field.value = "";
    button.disabled = true;
    if (status) status.textContent = "Thinking…";
    try {
      var response = await fetch(form.action, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "Accept": "text/event-stream", "X-CSRF-Token": csrfToken(form) },
      });
      var kind = response.headers.get("content-type") || "";
      if (!response.ok || kind.indexOf("text/event-stream") !== 0) {
        var message = "The message could not be sent (HTTP " + response.status + ").";
        try {
          message = (await response.json()).message || message;
        } catch (e) { /* not JSON: keep the status line */ }
        answer.error(message);
        field.value = text;
        return;
      }
      await readEvents(response, function (name, data) {
        if (name === "session") remember(form, data.id);
        else if (name === "token") answer.token(data);
        else if (name === "tool_call") answer.toolCall(data);
        else if (name === "tool_result") answer.toolResult(data);
        else if (name === "done") answer.done(data);
        else if (name === "error") answer.error(data.message || "the answer failed");
      });
    } catch (e) {
      answer.error("The connection broke off: " + e.message);
    } finally {
      button.disabled = false;
      if (status) status.textContent = "";
      field.focus();
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-chat")) return;
    if (!window.fetch || !window.TextDecoder || !window.ReadableStream) return; // post normally
    event.preventDefault();
    send(form);
  });

  // Enter sends, Shift+Enter makes a new line.
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    if (!(field instanceof HTMLTextAreaElement) || !field.form || !field.form.hasAttribute("data-chat")) return;
    event.preventDefault();
    field.form.requestSubmit();
  });
})();
