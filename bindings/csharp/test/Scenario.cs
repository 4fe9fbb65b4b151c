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
            ModelStep(output, ctx, data);
        }
        return 0;
    }

    /// <summary>Step 6: DC-SVM on rows [0,2000), predictions on rows [2000,2500), and a save/load round trip.</summary>
    static void ModelStep(TextWriter output, Context ctx, Dataset data)
    {
        using (var train = RowsOf(data, 0, 2000))
        using (var test = RowsOf(data, 2000, 2500))
        using (var first = RowsOf(data, 2000, 2020))
        using (var solver = new Solver("method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300"))
        using (var kernel = new Kernel("kernel=rbf gamma=16"))
        using (var model = solver.Train(kernel, train, ctx))
        {
            double[] predictions = model.Predict(test, ctx);
            double[] decision = model.DecisionValues(first, ctx);
            double supportVectors = model.Info(ModelInfoKey.InfoSupportVectors);
            double objective = model.Info(ModelInfoKey.InfoObjective);
            double[] reloadedPredictions;
            using (var reloaded = Model.LoadFromBuffer(model.SaveToBuffer()))
                reloadedPredictions = reloaded.Predict(test, ctx);

            Write(output, "model_predictions", predictions.Select(Exact));
            Write(output, "model_decision_values", decision.Select(Exact));
            Write(output, "model_support_vectors", new[] { Exact(supportVectors) });
            Write(output, "model_objective", new[] { Exact(objective) });
            Write(output, "model_reloaded_predictions", reloadedPredictions.Select(Exact));
        }
    }

    /// <summary>A dataset copied from rows [begin, end) of data, with their labels.</summary>
    static Dataset RowsOf(Dataset data, long begin, long end)
    {
        double[] labels = data.GetLabels();
        var y = new double[end - begin];
        Array.Copy(labels, begin, y, 0, y.Length);
        return new Dataset(data.GetRows(begin, end), data.Cols, y);
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
