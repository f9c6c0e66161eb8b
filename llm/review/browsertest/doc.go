// Package browsertest tests the review page (package llm/review) in a
// real browser: headless Chromium, driven with chromedp. It is a module
// of its own, so that the main module's tests need no browser.
package browsertest
