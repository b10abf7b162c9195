-- A whole file in Latin-1: Neovim opens it as latin1 and shows it right.
-- The U005 code action converts it to UTF-8 on disk; the buffer is then
-- re-read as UTF-8, so that the next :w keeps the conversion.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
local path = h.root .. '/latin1.txt'
vim.cmd.edit(path)
local buf = vim.api.nvim_get_current_buf()
h.eq(vim.bo[buf].fileencoding, 'latin1', 'fileencoding when opened')
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 1 end, 'U005')
h.eq(ds[1].code, 'U005', 'the finding')
h.apply_disk_fix(buf, ds[1])
local utf8_text = 'Ça a été une très belle journée'
h.ok(h.read(path):find(utf8_text, 1, true), 'the file on disk is UTF-8')
h.ok(vim.wait(5000, function() return vim.bo[buf].fileencoding == 'utf-8' end, 20),
  "'fileencoding' follows the file: " .. vim.bo[buf].fileencoding)
h.ok(vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find(utf8_text, 1, true), 'the buffer shows the letters')
vim.cmd.write()
h.ok(h.read(path):find(utf8_text, 1, true), 'still UTF-8 on disk after :w')
h.done()
