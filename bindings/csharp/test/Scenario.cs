// Scenario.cs — the shared scenario (tests/scenario/README.md) in C#.
//   scenario_cs.exe DATA_FILE REGRESSION_FILE OUT_FILE
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
        if (args.Length != 3)
        {
            Console.Error.WriteLine("usage: scenario_cs.exe DATA_FILE REGRESSION_FILE OUT_FILE");
            return 2;
        }
        using (var ctx = new Context("threads=1 seed=42"))
        using (var data = Dataset.Load(ctx, args[0]))
        using (var kernel = new Kernel("kernel=rbf gamma=0.5"))
        using (var output = new StreamWriter(args[2]))
        {
            double[] block = kernel.BlockRows(ctx, data, 0, 10, data, 0, 8);
            double[] denseBlock = kernel.Block(ctx, data.GetRows(0, 3), data.GetRows(3, 7), data.Cols);
            KMeansResult kmeans = KMeans.Fit(ctx, data, K, "max_iter=50");
            KMeansAssignment assigned = KMeans.Assign(ctx, data, kmeans.Centers);

            Write(output, "kernel_block", block.Select(Exact));
            Write(output, "kernel_block_dense", denseBlock.Select(Exact));
            Write(output, "kmeans_objective", new[] { Exact(kmeans.Objective) });
            Write(output, "kmeans_centers", kmeans.Centers.Select(Exact));
            Write(output, "kmeans_assignment", kmeans.Assignment.Select(a => a.ToString(CultureInfo.InvariantCulture)));
            Write(output, "assign_sqdist_sum", new[] { Exact(Sum(assigned.SquaredDistances)) });
            ModelStep(output, ctx, data);
            ApproxStep(output, ctx, kernel, data);
            KrrStep(output, ctx, args[1]);
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
        using (var model = solver.Train(ctx, kernel, train))
        {
            double[] predictions = model.Predict(ctx, test);
            double[] decision = model.DecisionValues(ctx, first);
            double supportVectors = model.Info(ModelInfoKey.InfoSupportVectors);
            double objective = model.Info(ModelInfoKey.InfoObjective);
            double[] reloadedPredictions;
            using (var reloaded = Model.LoadFromBuffer(model.SaveToBuffer()))
                reloadedPredictions = reloaded.Predict(ctx, test);

            Write(output, "model_predictions", predictions.Select(Exact));
            Write(output, "model_decision_values", decision.Select(Exact));
            Write(output, "model_support_vectors", new[] { Exact(supportVectors) });
            Write(output, "model_objective", new[] { Exact(objective) });
            Write(output, "model_reloaded_predictions", reloadedPredictions.Select(Exact));
            PredictorStep(output, ctx, model, train, test, first);
        }
    }

    /// <summary>Step 7: a compact predictor from step 6's model, its outputs, blob size and a blob round trip.</summary>
    static void PredictorStep(TextWriter output, Context ctx, Model model, Dataset train, Dataset test, Dataset first)
    {
        using (var predictor = Predictor.Build(ctx, model, train, "leaves=4 landmarks=16 pseudo=32"))
        {
            double[] predictions = predictor.Predict(ctx, test);
            double[] decision = predictor.DecisionValues(ctx, first);
            byte[] blob = predictor.ToBytes();
            double[] reloadedPredictions;
            using (var reloaded = Predictor.FromBytes(blob))
                reloadedPredictions = reloaded.Predict(ctx, test);
            Write(output, "predictor_predictions", predictions.Select(Exact));
            Write(output, "predictor_decision_values", decision.Select(Exact));
            Write(output, "predictor_bytes", new[] { Exact(blob.Length) });
            Write(output, "predictor_reloaded_predictions", reloadedPredictions.Select(Exact));
        }
    }

    /// <summary>Step 8: MEKA over rows [0,1000) with the step-2 kernel: rank, bytes, exact error, G~ v, (G~ + 0.1 I)^-1 v.</summary>
    static void ApproxStep(TextWriter output, Context ctx, Kernel kernel, Dataset data)
    {
        const int N = 1000;
        var v = new double[N];
        for (int i = 0; i < N; ++i) v[i] = (i % 7) - 3;
        using (var rows = RowsOf(data, 0, N))
        using (var approx = new Approximation(ctx, kernel, rows, "approx=meka rank=16 clusters=4"))
        {
            if (approx.Rows != N) throw new InvalidOperationException("the approximation has " + approx.Rows + " rows");
            Write(output, "approx_rank", new[] { Exact(approx.Rank) });
            Write(output, "approx_memory_bytes", new[] { Exact(approx.MemoryBytes) });
            Write(output, "approx_relative_error", new[] { Exact(approx.RelativeError(ctx, rows, N)) });
            Write(output, "approx_matvec", approx.Matvec(ctx, v).Select(Exact));
            Write(output, "approx_solve", approx.Solve(ctx, 0.1, v).Select(Exact));
        }
    }

    /// <summary>Step 9: FALKON regression on rows [0,80) of the regression file, predictions on rows [80,106).</summary>
    static void KrrStep(TextWriter output, Context ctx, string path)
    {
        using (var data = Dataset.Load(ctx, path))
        using (var train = RowsOf(data, 0, 80))
        using (var test = RowsOf(data, 80, 106))
        using (var solver = new Solver("method=falkon lambda=1e-4 centers=40 iterations=30"))
        using (var kernel = new Kernel("kernel=rbf gamma=1"))
        using (var model = solver.Train(ctx, kernel, train))
        {
            Write(output, "krr_predictions", model.Predict(ctx, test).Select(Exact));
            Write(output, "krr_task", new[] { Exact(model.Info(ModelInfoKey.InfoTask)) });
            Write(output, "krr_lambda", new[] { Exact(model.Lambda) });
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
