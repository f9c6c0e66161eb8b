// Package browsertest decides a Temporal workflow's plan on the review
// page (package llm/review) in a real browser: headless Chromium, driven
// with chromedp, against a real Temporal server the test starts (the
// adapter's dev server, built on first use). It is a module of its own,
// so that neither the main module's tests nor the adapter's need a
// browser.
package browsertest
