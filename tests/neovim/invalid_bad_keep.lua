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
-- Columns count the raw bytes the buffer holds (one each), not the U+FFFD
-- the server got after the transport's repair.
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_col }, { 'U001', 0, 6, 7 }, 'the \\xFF')
h.eq({ ds[2].code, ds[2].lnum, ds[2].col, ds[2].end_col }, { 'U001', 1, 9, 11 }, 'the \\xC0\\xAE')
-- The server is still alive after the bad frame: it answers a request.
local client = h.client(buf)
local res = client:request_sync('textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 1, character = 9 },
}, 5000, buf)
h.ok(res and res.result and res.result.contents.value:find('U001'), 'hover after the bad frame: ' .. vim.inspect(res))
-- An edit after the raw byte on the same line lands where the user made it:
-- a U+FEFF typed between "o" and "k" (raw column 9) is found there, and
-- read as a word joiner (it sits between two letters in the server's text).
vim.api.nvim_buf_set_text(buf, 0, 9, 0, 9, { '\239\187\191' })
ds = h.wait_diagnostics(buf, function(ds) return #ds == 3 end, 'U002 after the edit')
h.eq({ ds[2].code, ds[2].lnum, ds[2].col, ds[2].end_col }, { 'U002', 0, 9, 12 }, 'typed U+FEFF')
h.ok(ds[2].message:find('word joiner'), 'the server placed the edit elsewhere: ' .. ds[2].message)
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_col }, { 'U001', 0, 6, 7 }, 'the \\xFF after the edit')
h.done()
