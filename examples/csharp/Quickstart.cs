// Quickstart.cs — kmx from C#: load Letter, compute a kernel block, cluster it.
//   mono quickstart_cs.exe examples/data/letter_mc.train.libsvm [k]
using System;
using System.Globalization;
using Kmx;

static class Quickstart
{
    static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.Error.WriteLine("usage: quickstart_cs.exe DATA_FILE [k]");
            return 2;
        }
        int k = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 26;
        try
        {
            Run(args[0], k);
            return 0;
        }
        catch (KmxException e)
        {
            Console.Error.WriteLine("kmx failed: " + e.Message);
            return 1;
        }
    }

    static void Run(string path, int k)
    {
        Console.WriteLine("kmx " + Library.Version);
        using (var ctx = new Context("threads=2 seed=42"))
        using (var data = Dataset.Load(path, FileFormat.Auto, ctx))
        using (var kernel = new Kernel("kernel=rbf gamma=0.05"))
        {
            Console.WriteLine($"{data.Rows} rows, {data.Cols} columns, {data.Classes().Length} classes");

            double[] block = kernel.BlockRows(data, 0, 3, data, 0, 3, ctx);
            Console.WriteLine("RBF kernel block of rows 0..2:");
            for (int i = 0; i < 3; ++i)
                Console.WriteLine("  " + string.Join("  ", Array.ConvertAll(block, v => v.ToString("F4", CultureInfo.InvariantCulture)), i * 3, 3));

            KMeansResult clusters = KMeans.Fit(data, k, "max_iter=50", ctx);
            var sizes = new int[k];
            foreach (int cluster in clusters.Assignment) ++sizes[cluster];
            Console.WriteLine($"k-means, k = {k}: objective {clusters.Objective.ToString("G6", CultureInfo.InvariantCulture)}");
            Console.WriteLine("cluster sizes: " + string.Join(" ", sizes));
        }
    }
}
