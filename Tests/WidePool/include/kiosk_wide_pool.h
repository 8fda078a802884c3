// Test-only: see wide_pool.c. The width the shim reports (for a test that checks it is loaded).
int kiosk_wide_pool_width(void);
