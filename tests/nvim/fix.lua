-- tests/ext/nvim.rs runs this in `nvim --headless --clean -u NONE`: Neovim's
-- built-in LSP client drives `sqsguard server` on one template. It opens the
-- file, waits for the server's diagnostics, hovers on the first one, asks
-- for the code actions on its line as `vim.lsp.buf.code_action()` does,
-- applies the preferred quick fix, waits for the
-- diagnostics to clear, stops the server, and writes what it saw to
-- $SQSGUARD_OUT as JSON. Any failure (every wait has a timeout) is written
-- there too, and Neovim exits non-zero.
--
-- Neovim 0.7 has only vim.lsp.start_client + buf_attach_client; 0.8 and
-- later have vim.lsp.start, which is used when it exists.

local bin, file, root, out = os.getenv('SQSGUARD_BIN'), os.getenv('SQSGUARD_FILE'), os.getenv('SQSGUARD_ROOT'),
  os.getenv('SQSGUARD_OUT')
local TIMEOUT = 20000
local version = vim.version()
local report = { steps = {}, nvim = string.format('%d.%d.%d', version.major, version.minor, version.patch) }

local function save()
  vim.fn.writefile({ vim.fn.json_encode(report) }, out)
end

local function step(name)
  table.insert(report.steps, name)
  save()
end

-- Waits up to TIMEOUT ms for `predicate`; fails naming `what` if it never holds.
local function wait_for(what, predicate)
  if not vim.wait(TIMEOUT, predicate, 50) then
    error('timed out waiting for ' .. what, 0)
  end
end

local function lsp_diagnostic(d)
  -- 0.10+ keeps the server's diagnostic whole; 0.7 keeps only some fields.
  local kept = d.user_data and d.user_data.lsp
  if kept and kept.range then
    return kept
  end
  return {
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code,
  }
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  report.before = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)

  local exited = nil
  local config = {
    name = 'sqsguard',
    cmd = { bin, 'server' },
    root_dir = root,
    init_options = { select = { 'SQS001', 'SQS002' } },
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else
    client_id = vim.lsp.start_client(config)
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if not client_id then
    error('the client did not start', 0)
  end
  step('started')
  wait_for('the server to initialize', function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c ~= nil and c.initialized == true
  end)
  local client = vim.lsp.get_client_by_id(client_id)
  report.server = client.server_capabilities and client.server_capabilities.positionEncoding
  step('initialized')

  wait_for('diagnostics', function()
    return #vim.diagnostic.get(bufnr) > 0
  end)
  local diagnostics = vim.diagnostic.get(bufnr)
  report.diagnostics = {}
  for _, d in ipairs(diagnostics) do
    table.insert(report.diagnostics, {
      code = d.code,
      line = d.lnum,
      col = d.col,
      end_line = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      source = d.source,
      message = d.message,
    })
  end
  step('diagnostics')

  local first = diagnostics[1]
  local wire = lsp_diagnostic(first)
  local uri = vim.uri_from_bufnr(bufnr)

  -- Hover on the diagnostic's place: the rule's page.
  local hovers = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = uri },
    position = wire.range.start,
  }, TIMEOUT)
  local hover = hovers and hovers[client_id] and hovers[client_id].result
  report.hover = hover and hover.contents and hover.contents.value
  step('hover')

  -- As a user asks: the cursor on the flagged line's first non-blank (not
  -- on the flagged value), then vim.lsp.buf.code_action(), which sends the
  -- cursor's position and the line's diagnostics, and offers the actions
  -- through vim.ui.select: answered here with the preferred quick fix.
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, 0 })
  vim.cmd('normal! ^')
  local offered = nil
  vim.ui.select = function(items, _, on_choice)
    offered = {}
    local pick = nil
    for i, item in ipairs(items) do
      -- {client_id, action} up to 0.9, {ctx = ..., action = ...} from 0.10.
      local action = item.action or item[2]
      table.insert(offered, { title = action.title, kind = action.kind, preferred = action.isPreferred == true })
      if action.isPreferred and action.kind == 'quickfix' and action.edit and not pick then
        pick = i
        report.applied = action.title
      end
    end
    on_choice(pick and items[pick] or nil, pick)
  end
  vim.lsp.buf.code_action()
  wait_for('the code actions', function()
    return offered ~= nil
  end)
  report.actions = offered
  step('actions')
  if not report.applied then
    error('no preferred quick fix among the code actions', 0)
  end
  report.after = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  step('applied')

  -- The edit reaches the server as didChange; its next publication for the
  -- new text has nothing left.
  wait_for('the diagnostics to clear', function()
    return #vim.diagnostic.get(bufnr) == 0
  end)
  report.cleared = true
  step('cleared')

  vim.lsp.stop_client(client_id)
  wait_for('the server to exit', function()
    return exited ~= nil
  end)
  report.server_exit = exited
  step('stopped')
end

local ok, why = xpcall(run, debug.traceback)
if not ok then
  report.error = tostring(why)
  save()
  vim.cmd('cquit 3')
end
save()
vim.cmd('qa!')
