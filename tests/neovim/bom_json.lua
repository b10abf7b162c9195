-- A JSON file with a BOM: U003 at 0:0; its code action runs
-- utf8lint.applyFix, which rewrites the file on disk without the BOM.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
local path = h.root .. '/bom.json'
vim.cmd.edit(path)
local buf = vim.api.nvim_get_current_buf()
h.eq(vim.bo[buf].bomb, true, "'bomb' after opening a file with a BOM")
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 1 end, 'U003')
h.eq({ ds[1].code, ds[1].lnum, ds[1].col }, { 'U003', 0, 0 }, 'U003 at 0:0')
h.ok(ds[1].message:find('JSON'), ds[1].message)
h.apply_disk_fix(buf, ds[1])
h.eq(h.read(path), '{"a": 1}\n', 'file on disk after the fix')
-- The server re-read the file: the finding is gone.
h.wait_diagnostics(buf, function(ds) return #ds == 0 end, 'no diagnostics after the fix')
-- The server said it rewrote the file; the buffer was re-read, so 'bomb'
-- follows the file and saving does not put the BOM back.
h.ok(vim.wait(5000, function() return not vim.bo[buf].bomb end, 20), "'bomb' cleared after the fix")
vim.cmd.write()
h.eq(h.read(path), '{"a": 1}\n', 'file on disk after :w')
h.done()
