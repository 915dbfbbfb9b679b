// Small DOM helpers for the desk: elements and text only (never HTML from the network, so a
// walker's name or an operator's note cannot become markup).

export const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function setText(id, text) {
  const node = typeof id === "string" ? $(id) : id;
  if (node && node.textContent !== text) node.textContent = text;
}

export function show(id, visible) {
  const node = typeof id === "string" ? $(id) : id;
  if (node) node.hidden = !visible;
}
