// el builds an element: attributes set as attributes (never as HTML),
// children appended as nodes or as text. Untrusted text goes in here.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// webURL says an address from the knowledge base may be a link.
export function webURL(url) {
  return typeof url === "string" && /^https?:\/\//i.test(url);
}
