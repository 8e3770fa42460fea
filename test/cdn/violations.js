// A classic script in /__cdn.html: runs before any module and records every CSP violation.
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.violations.push(`${e.violatedDirective}: ${e.blockedURI}`),
);
