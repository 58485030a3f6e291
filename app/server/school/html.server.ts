// The school systems' HTML, read in time proportional to its length whatever it holds.
// htmlparser2's tokenizer splits the page (linear); the tree is built here rather than by its
// Parser, whose open-element stack grows at the front (Array#unshift) and is searched from end
// to end on every close tag — 100,000 nested tags took ~10 s there, 200,000 about a minute.
// Here the stack is capped at MAX_DEPTH (browsers cap theirs too): deeper tags become children
// of the deepest open element, and a close tag only walks the stack when its tag is open (and
// then pops what it walks), so every token costs amortised constant time; past MAX_NODES nothing more is kept, so memory is bounded too. The tree is domhandler's, so domutils queries work on it; with the
// depth capped, their recursion is bounded too.
import { Document, Element, Text, hasChildren, isTag, type AnyNode, type ParentNode } from "domhandler";
import { findAll, findOne, getAttributeValue, hasAttrib } from "domutils";
import { QuoteType, Tokenizer } from "htmlparser2";

export const MAX_DEPTH = 256;
/** Elements and text nodes kept; the rest of a page is tokenised and dropped (a real page has a few thousand). */
export const MAX_NODES = 50_000;
/** Attributes kept per element (the first ones, as a browser keeps the first of a repeated name). */
export const MAX_ATTRIBUTES = 64;
/** A field read off a page (a name, a cell) longer than this is cut: nothing real is that long. */
export const MAX_FIELD_CHARS = 500;

const VOID = new Set(["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"]);
const P = new Set(["p"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
const FORM_TAGS = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
// The tags a new tag closes when they are open at the top (htmlparser2's own table, abridged).
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["li", new Set(["li"])],
  ["p", P],
  ["h1", HEADINGS],
  ["h2", HEADINGS],
  ["h3", HEADINGS],
  ["h4", HEADINGS],
  ["h5", HEADINGS],
  ["h6", HEADINGS],
  ["select", FORM_TAGS],
  ["input", FORM_TAGS],
  ["button", FORM_TAGS],
  ["textarea", FORM_TAGS],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["div", P],
  ["form", P],
  ["table", P],
  ["ul", P],
  ["ol", P],
  ["tbody", new Set(["thead", "tbody"])],
  ["tfoot", new Set(["thead", "tbody"])],
]);

function append(parent: ParentNode, child: AnyNode) {
  const last = parent.children[parent.children.length - 1];
  if (last) {
    last.next = child;
    child.prev = last;
  }
  child.parent = parent;
  parent.children.push(child);
}

/** The page as a tree (entities decoded, names lower-cased), built in linear time. */
export function parseHtml(html: string): Document {
  const root = new Document([]);
  const stack: ParentNode[] = [root];
  // How many of each tag are open: a close tag with none open costs nothing, and one with a
  // match pops exactly the entries it looks at, so every entry is looked at about once.
  const open = new Map<string, number>();
  const top = () => stack[stack.length - 1]!;
  const push = (element: Element) => {
    stack.push(element);
    open.set(element.name, (open.get(element.name) ?? 0) + 1);
  };
  const pop = () => {
    const element = stack.pop() as Element;
    open.set(element.name, open.get(element.name)! - 1);
  };
  let text: string[] = [];
  let pending: Element | null = null;
  let nodes = 0;
  const full = () => nodes >= MAX_NODES;
  let attribute = "";
  let value: string[] = [];
  let attributes = 0;

  const flushText = () => {
    if (text.length === 0) return;
    if (!full()) {
      nodes++;
      append(top(), new Text(text.join("")));
    }
    text = [];
  };
  const slice = (start: number, end: number) => html.slice(start, end);
  const openPending = () => {
    if (!pending) return;
    const element = pending;
    pending = null;
    if (full()) return;
    nodes++;
    append(top(), element);
    if (!VOID.has(element.name) && stack.length <= MAX_DEPTH) push(element);
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext(start, end) {
        if (!full()) text.push(slice(start, end));
      },
      ontextentity(codepoint) {
        if (!full()) text.push(String.fromCodePoint(codepoint));
      },
      onopentagname(start, end) {
        flushText();
        if (full()) return;
        const name = slice(start, end).toLowerCase();
        const closes = IMPLIES_CLOSE.get(name);
        if (closes) {
          while (stack.length > 1 && closes.has((top() as Element).name)) pop();
        }
        pending = new Element(name, {});
        attributes = 0;
      },
      onattribname(start, end) {
        attribute = slice(start, end).toLowerCase();
        value = [];
      },
      onattribdata(start, end) {
        if (pending) value.push(slice(start, end));
      },
      onattribentity(codepoint) {
        if (pending) value.push(String.fromCodePoint(codepoint));
      },
      onattribend(quote) {
        if (pending && attributes < MAX_ATTRIBUTES && !Object.hasOwn(pending.attribs, attribute)) {
          attributes++;
          pending.attribs[attribute] = quote === QuoteType.NoValue ? "" : value.join("");
        }
        value = [];
      },
      onopentagend() {
        openPending();
      },
      onselfclosingtag() {
        // HTML ignores the slash: <div/> opens a div, <br/> is void anyway.
        openPending();
      },
      onclosetag(start, end) {
        flushText();
        const name = slice(start, end).toLowerCase();
        if (VOID.has(name) || !open.get(name)) return;
        let closed = false;
        while (!closed && stack.length > 1) {
          closed = (top() as Element).name === name;
          pop();
        }
      },
      oncomment() {},
      oncdata() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        openPending();
        flushText();
      },
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return root;
}

type Scope = AnyNode | AnyNode[];

const WORD_BREAK = new Text(" ");

/** Every element in scope (document order) that passes the test. */
export function elements(scope: Scope, test: (element: Element) => boolean): Element[] {
  return findAll(test, Array.isArray(scope) ? scope : [scope]);
}

export function firstElement(scope: Scope, test: (element: Element) => boolean): Element | null {
  return findOne(test, Array.isArray(scope) ? scope : [scope]);
}

/** An attribute's value (entities decoded), or null when the element has none. */
export function attr(element: Element, name: string): string | null {
  return hasAttrib(element, name) ? (getAttributeValue(element, name) ?? "") : null;
}

export const named = (tag: string) => (element: Element) => element.name === tag;
export const withAttr = (tag: string, name: string, wanted: string) => (element: Element) => element.name === tag && attr(element, name) === wanted;

/**
 * The text of nodes as the page shows it: tags are word breaks, runs of white space (nbsp
 * included) are one space, scripts and styles say nothing; cut at MAX_FIELD_CHARS.
 */
export function textOf(scope: Scope | null, maxChars = MAX_FIELD_CHARS): string {
  if (!scope) return "";
  const parts: string[] = [];
  let length = 0;
  // Iterative, last child first onto the stack so the text comes out in order.
  const stack: AnyNode[] = [...(Array.isArray(scope) ? scope : [scope])].reverse();
  while (stack.length > 0 && length <= maxChars * 2) {
    const node = stack.pop()!;
    if (node instanceof Text) {
      parts.push(node.data);
      length += node.data.length;
    } else if (isTag(node)) {
      parts.push(" ");
      length++; // counted, so a subtree of tags without text is not walked to its end either
      if (node.name === "script" || node.name === "style") continue;
      stack.push(WORD_BREAK); // after the children: a close tag breaks words too
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    } else if (hasChildren(node)) {
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return parts.join("").slice(0, maxChars * 2).replace(/\s+/g, " ").trim().slice(0, maxChars);
}
