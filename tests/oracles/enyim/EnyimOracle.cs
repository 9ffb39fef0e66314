// Drives EnyimMemcached's own DefaultNodeLocator / KetamaNodeLocator (compiled from its source by
// generate.sh) as MemcachedClient places a key. Line protocol of tests/oracles/lib/LineIO.java on
// stdin/stdout: `T default|ketama`, `S <hex host> <hex port>` per server, `K <hex UTF-8 key>`
// per key, `E`; the answer per job is `R`, one line per key (the server's list index, or `x`
// when the client refuses the key), then `D`. A job `T endpoints` answers, per server, the
// EndPoint text the locators hash.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using Enyim.Caching.Configuration;
using Enyim.Caching.Memcached;

// An always-alive stand-in for a server: the locators read only EndPoint and IsAlive.
sealed class OracleNode : IMemcachedNode
{
    public readonly int Index;
    readonly IPEndPoint endPoint;

    public OracleNode(int index, IPEndPoint endPoint) { this.Index = index; this.endPoint = endPoint; }
    public IPEndPoint EndPoint { get { return this.endPoint; } }
    public bool IsAlive { get { return true; } }
    public bool Ping() { return true; }
    public Enyim.Caching.Memcached.Results.IOperationResult Execute(IOperation op) { throw new NotSupportedException(); }
    public bool ExecuteAsync(IOperation op, Action<bool> next) { throw new NotSupportedException(); }
    public event Action<IMemcachedNode> Failed { add { } remove { } }
    public void Dispose() { }
}

static class EnyimOracle
{
    static string Unhex(string h)
    {
        var b = new byte[h.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(h.Substring(2 * i, 2), 16);
        return new UTF8Encoding(false, true).GetString(b);
    }

    // The locator MemcachedClientConfiguration creates: DefaultNodeLocator when none is
    // configured; KetamaNodeLocatorFactory.Create() with no parameters (hashName unset: MD5).
    static IMemcachedNodeLocator Locator(string kind)
    {
        if (kind == "default") return new DefaultNodeLocator();
        IProviderFactory<IMemcachedNodeLocator> f = new KetamaNodeLocatorFactory();
        f.Initialize(new Dictionary<string, string>());
        return f.Create();
    }

    static List<string> Run(string kind, List<string[]> servers, List<string> keys)
    {
        var nodes = new List<IMemcachedNode>();
        foreach (var s in servers)
            // MemcachedClientConfiguration.AddServer(host, port)
            nodes.Add(new OracleNode(nodes.Count, ConfigurationHelper.ResolveToEndPoint(s[0], int.Parse(s[1]))));
        var outp = new List<string>();
        if (kind == "endpoints")
        {
            for (int i = 0; i < keys.Count; i++) outp.Add(i < nodes.Count ? nodes[i].EndPoint.ToString() : "-");
            return outp;
        }
        var locator = Locator(kind);
        locator.Initialize(nodes); // DefaultServerPool: the live nodes, in configuration order
        IMemcachedKeyTransformer transformer = new DefaultKeyTransformer(); // the default
        foreach (var key in keys)
        {
            string k;
            try { k = transformer.Transform(key); }
            catch (ArgumentException) { outp.Add(null); continue; }
            var node = locator.Locate(k) as OracleNode;
            outp.Add(node == null ? null : node.Index.ToString());
        }
        return outp;
    }

    static void Main()
    {
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        stdout.NewLine = "\n";
        string kind = null;
        var servers = new List<string[]>();
        var keys = new List<string>();
        string line;
        while ((line = stdin.ReadLine()) != null)
        {
            if (line.Length == 0) continue;
            var f = line.Split(' ');
            switch (f[0])
            {
                case "T": kind = f[1]; servers.Clear(); keys.Clear(); break;
                case "S":
                    var s = new string[f.Length - 1];
                    for (int i = 1; i < f.Length; i++) s[i - 1] = Unhex(f[i]);
                    servers.Add(s);
                    break;
                case "K": keys.Add(f.Length > 1 ? Unhex(f[1]) : ""); break;
                case "E":
                    var r = Run(kind, servers, keys);
                    stdout.WriteLine("R");
                    foreach (var a in r) stdout.WriteLine(a ?? "x");
                    stdout.WriteLine("D");
                    break;
                default: throw new ArgumentException(line);
            }
        }
        stdout.Flush();
    }
}
