// Starts Swagger UI on /docs from the vendored bundle: no CDN, no inline script (the page's
// Content-Security-Policy allows scripts from this server only).
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
