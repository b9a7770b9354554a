// @ts-check
// The demo's "add later" button: shows that linkify also handles content added after load.
document.getElementById("more")?.addEventListener("click", () => {
  const li = document.createElement("li");
  li.textContent = "Added later: Sun, S. (2003). Handle System Overview. RFC 3650. doi:10.17487/RFC3650.";
  document.getElementById("refs")?.appendChild(li);
});
