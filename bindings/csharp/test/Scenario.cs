// Scenario.cs — the shared scenario (tests/scenario/README.md) in C#.
//   scenario_cs.exe DATA_FILE OUT_FILE
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using Kmx;

/// <summary>Runs the shared scenario and writes "name count v1 v2 ..." lines, doubles round-trip exact.</summary>
static class Scenario
{
    const int K = 26;

    static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: scenario_cs.exe DATA_FILE OUT_FILE");
            return 2;
        }
        using (var ctx = new Context("threads=1 seed=42"))
        using (var data = Dataset.Load(args[0], FileFormat.Auto, ctx))
        using (var kernel = new Kernel("kernel=rbf gamma=0.5"))
        using (var output = new StreamWriter(args[1]))
        {
            double[] block = kernel.BlockRows(data, 0, 10, data, 0, 8, ctx);
            double[] denseBlock = kernel.Block(data.GetRows(0, 3), data.GetRows(3, 7), data.Cols, ctx);
            KMeansResult kmeans = KMeans.Fit(data, K, "max_iter=50", ctx);
            KMeansAssignment assigned = KMeans.Assign(data, kmeans.Centers, ctx);

            Write(output, "kernel_block", block.Select(Exact));
            Write(output, "kernel_block_dense", denseBlock.Select(Exact));
            Write(output, "kmeans_objective", new[] { Exact(kmeans.Objective) });
            Write(output, "kmeans_centers", kmeans.Centers.Select(Exact));
            Write(output, "kmeans_assignment", kmeans.Assignment.Select(a => a.ToString(CultureInfo.InvariantCulture)));
            Write(output, "assign_sqdist_sum", new[] { Exact(Sum(assigned.SquaredDistances)) });
        }
        return 0;
    }

    /// <summary>Sums in index order, as the C scenario does.</summary>
    static double Sum(double[] values)
    {
        double sum = 0;
        foreach (double v in values) sum += v;
        return sum;
    }

    /// <summary>A double that parses back to the same bits.</summary>
    static string Exact(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    static void Write(TextWriter output, string name, IEnumerable<string> values)
    {
        var list = values.ToList();
        output.WriteLine(name + " " + list.Count + (list.Count > 0 ? " " + string.Join(" ", list) : ""));
    }
}
