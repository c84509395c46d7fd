-- Streamlit's static bundles, sent gzipped at level 9 from memory (deploy/precompress.py compressed them once).
-- Loaded by the balancer's configuration (deploy/haproxy.py): `lua.static_gz` says whether a request is for a
-- bundle this file holds, from a browser that accepts gzip; the service of the same name answers it. Every other
-- request goes to the replicas, and HAProxy's own compression still covers their pages and JSON.
local dir = os.getenv("ATTENTION_STATIC_GZ") or "/usr/local/etc/haproxy/static-gz"
local files = {}

local manifest = io.open(dir .. "/manifest.tsv", "r")
if manifest then
  for line in manifest:lines() do
    local path, ctype, rel = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)$")
    if path then
      local f = io.open(dir .. "/" .. rel, "rb")
      if f then
        files[path] = { body = f:read("a"), ctype = ctype }
        f:close()
      end
    end
  end
  manifest:close()
end

core.register_fetches("static_gz", function(txn)
  if files[txn.sf:path()] == nil then return "0" end
  local accepts = txn.sf:req_fhdr("accept-encoding") or ""
  return accepts:find("gzip", 1, true) and "1" or "0"
end)

core.register_service("static_gz", "http", function(applet)
  local f = files[applet.path]
  applet:set_status(200)
  applet:add_header("content-type", f.ctype)
  applet:add_header("content-encoding", "gzip")
  applet:add_header("content-length", tostring(#f.body))
  applet:add_header("cache-control", "public, max-age=31536000, immutable")  -- their names carry their hashes
  applet:add_header("vary", "Accept-Encoding")
  applet:start_response()
  if applet.method ~= "HEAD" then applet:send(f.body) end
end)
