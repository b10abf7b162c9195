-- The same file with ++enc=utf-8 ++bad=keep: Neovim keeps the raw bytes and
-- sends them inside the JSON string, a frame that is not UTF-8. The server
-- must survive it and place the findings.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
vim.cmd('edit ++enc=utf-8 ++bad=keep ' .. vim.fn.fnameescape(h.root .. '/invalid.txt'))
local buf = vim.api.nvim_get_current_buf()
h.eq(vim.bo[buf].fileencoding, 'utf-8', 'fileencoding')
h.eq(vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1], 'caf\195\169 \255 ok', 'raw line')
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 2 end, 'two U001')
h.eq(#ds, 2, 'number of diagnostics (no save warning: the editor keeps the bytes)')
h.eq({ ds[1].code, ds[1].lnum, ds[1].col }, { 'U001', 0, 6 }, 'the \\xFF')
h.eq({ ds[2].code, ds[2].lnum, ds[2].col }, { 'U001', 1, 9 }, 'the \\xC0\\xAE')
-- The server is still alive after the bad frame: it answers a request.
local client = h.client(buf)
local res = client:request_sync('textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 1, character = 9 },
}, 5000, buf)
h.ok(res and res.result and res.result.contents.value:find('U001'), 'hover after the bad frame: ' .. vim.inspect(res))
h.done()
