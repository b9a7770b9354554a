// @ts-check
// The demo's "add later" button: shows that linkify also handles content added after load.
document.getElementById("more")?.addEventListener("click", () => {
  const li = document.createElement("li");
  li.textContent = "Added later: Sun, S. (2003). Handle System Overview. RFC 3650. doi:10.17487/RFC3650.";
  document.getElementById("refs")?.appendChild(li);
});

// The embed markup with this host's address (where widget.js is), and its Copy buttons.
// TOOL is the folder without its final "/": the templates write "TOOL/" where a folder
// is meant (a CSP source without it matches that one path only, not the files in it).
const here = new URL(".", location.href).href.replace(/\/$/, "");
for (const pre of document.querySelectorAll("pre[data-template]")) {
  const template = pre.getAttribute("data-template") ?? "";
  if (location.protocol === "http:" || location.protocol === "https:") {
    pre.textContent = template.split("TOOL").join(here);
  }
}
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const pre = document.getElementById(button.getAttribute("data-copy") ?? "");
    const status = document.getElementById("copy-status");
    if (!pre || !status) return;
    try {
      await navigator.clipboard.writeText(pre.textContent ?? "");
      status.textContent = "Copied. Paste it into your page.";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      status.textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
    }
  });
}
