-- Invalid bytes under the default 'fileencodings': Neovim falls back to
-- latin1 and sends the whole file reinterpreted. The findings must land on
-- the latin1 characters that stand for the invalid bytes.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
vim.cmd.edit(h.root .. '/invalid.txt')
local buf = vim.api.nvim_get_current_buf()
h.eq(vim.bo[buf].fileencoding, 'latin1', 'fileencoding')
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 2 end, 'two U001')
h.eq(#ds, 2, 'number of diagnostics')
-- Line 1 is "cafÃ© ÿ ok" in the buffer: ÿ (byte \xFF) is bytes 8..10.
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_lnum, ds[1].end_col }, { 'U001', 0, 8, 0, 10 }, 'the \\xFF')
h.eq(ds[1].severity, vim.diagnostic.severity.ERROR, 'severity')
h.eq(ds[1].source, 'utf8lint', 'source')
-- Line 2 is "line two À® end": the overlong \xC0\xAE is bytes 9..13.
h.eq({ ds[2].code, ds[2].lnum, ds[2].col, ds[2].end_col }, { 'U001', 1, 9, 13 }, 'the \\xC0\\xAE')
h.ok(ds[2].message:find('overlong'), ds[2].message)
-- Hover over the \xFF shows the bytes.
local client = h.client(buf)
local res = client:request_sync('textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 0, character = 8 },
}, 5000, buf)
h.ok(res and res.result and res.result.contents.value:find('\\xFF', 1, true), 'hover: ' .. vim.inspect(res))
h.done()
