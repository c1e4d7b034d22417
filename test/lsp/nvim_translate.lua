-- Drives dpstub-lsp from a real editor: Neovim, headless.
--   DPSTUB_LSP=<server> SOURCE=<file> LINE=<0-based> COLUMN=<0-based> OUT=<log>
--   [EDITS=documentChanges: declare documentChanges and file creation, so the
--   action comes as a workspace edit rather than a command]
--   [LOOK=1: hover and code lenses only, nothing translated]
--   [ACTION=<Lua pattern>: the action to apply (default '^Translate this');
--   with an ACTION, no hover is asked: the cursor may be on a plain loop]
--   nvim --headless --clean -u NONE -c 'luafile nvim_translate.lua'
-- Opens SOURCE, starts the server with vim.lsp.start_client, asks for hover
-- and code actions at LINE:COLUMN, applies "Translate this ... call-site",
-- writes every buffer and quits; OUT gets what it saw. Exit status 0 only
-- when every step worked.
local out = assert(io.open(os.getenv('OUT'), 'w'))
local function log(...) out:write(table.concat({...}, ' '), '\n') out:flush() end
local function fail(why) log('FAIL', why) out:close() vim.cmd('cquit 1') end

local ok, err = pcall(function()
  vim.cmd('edit ' .. os.getenv('SOURCE'))
  local buf = vim.api.nvim_get_current_buf()
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if os.getenv('EDITS') == 'documentChanges' then
    capabilities.workspace.workspaceEdit.documentChanges = true
    capabilities.workspace.workspaceEdit.resourceOperations = { 'create', 'rename', 'delete' }
  end
  local id = vim.lsp.start_client({
    name = 'dpstub',
    cmd = { os.getenv('DPSTUB_LSP') },
    root_dir = vim.fn.fnamemodify(os.getenv('SOURCE'), ':h'),
    capabilities = capabilities,
  })
  if not id then return fail('the server did not start') end
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  if not vim.wait(20000, function() return client.server_capabilities ~= nil end, 50) then
    return fail('no initialize reply')
  end
  log('server', client.name, 'offset encoding', client.offset_encoding)

  local pos = { line = tonumber(os.getenv('LINE')), character = tonumber(os.getenv('COLUMN')) }
  local doc = { uri = vim.uri_from_bufnr(buf) }
  local wanted = os.getenv('ACTION')
  if not wanted then
    local hover = client.request_sync('textDocument/hover', { textDocument = doc, position = pos }, 60000, buf)
    if not hover or hover.err or not hover.result then return fail('no hover') end
    log('hover', hover.result.contents.value)
  end
  wanted = wanted or '^Translate this'

  if os.getenv('LOOK') == '1' then
    local lenses = client.request_sync('textDocument/codeLens', { textDocument = doc }, 60000, buf)
    if not lenses or lenses.err or not lenses.result then return fail('no code lenses') end
    for _, l in ipairs(lenses.result) do
      log('lens', l.range.start.line, l.command.title)
    end
    log('looked')
    vim.lsp.stop_client(id)
    return
  end

  local actions = client.request_sync('textDocument/codeAction',
    { textDocument = doc, range = { start = pos, ['end'] = pos }, context = { diagnostics = {} } }, 60000, buf)
  if not actions or actions.err or not actions.result then return fail('no code actions') end
  local chosen
  for _, a in ipairs(actions.result) do
    log('action', a.title)
    if a.title:match(wanted) and not a.disabled then chosen = a end
  end
  if not chosen then return fail('no action matching "' .. wanted .. '"') end

  if chosen.edit then
    log('applying', 'workspace edit')
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  else
    -- The server completes the command with a workspace/applyEdit request,
    -- which Neovim's default handler applies.
    log('applying', 'command', chosen.command.command)
    local done = client.request_sync('workspace/executeCommand', chosen.command, 60000, buf)
    if not done or done.err then return fail('the command failed') end
    vim.wait(2000, function() return false end, 100)
  end
  vim.cmd('silent! wall')
  log('written')
  vim.lsp.stop_client(id)
end)
if not ok then return fail(tostring(err)) end
out:close()
vim.cmd('qall!')
