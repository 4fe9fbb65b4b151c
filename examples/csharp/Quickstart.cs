// Quickstart.cs — kmx from C#: load Letter, compute a kernel block, cluster it,
// then train DC-SVM on the binary Letter problem and predict its test split.
//   mono quickstart_cs.exe examples/data/letter_mc.train.libsvm [k [BIN_TRAIN BIN_TEST]]
// BIN_TRAIN and BIN_TEST default to letter_bin.{train,test}.libsvm next to the data file.
using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using Kmx;

static class Quickstart
{
    static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.Error.WriteLine("usage: quickstart_cs.exe DATA_FILE [k [BIN_TRAIN BIN_TEST]]");
            return 2;
        }
        int k = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 26;
        string dir = Path.GetDirectoryName(Path.GetFullPath(args[0]));
        string binTrain = args.Length > 3 ? args[2] : Path.Combine(dir, "letter_bin.train.libsvm");
        string binTest = args.Length > 3 ? args[3] : Path.Combine(dir, "letter_bin.test.libsvm");
        try
        {
            Run(args[0], k);
            Classify(binTrain, binTest);
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
        using (var data = Dataset.Load(ctx, path))
        using (var kernel = new Kernel("kernel=rbf gamma=0.05"))
        {
            Console.WriteLine($"{data.Rows} rows, {data.Cols} columns, {data.Classes().Length} classes");

            double[] block = kernel.BlockRows(ctx, data, 0, 3, data, 0, 3);
            Console.WriteLine("RBF kernel block of rows 0..2:");
            for (int i = 0; i < 3; ++i)
                Console.WriteLine("  " + string.Join("  ", Array.ConvertAll(block, v => v.ToString("F4", CultureInfo.InvariantCulture)), i * 3, 3));

            KMeansResult clusters = KMeans.Fit(ctx, data, k, "max_iter=50");
            var sizes = new int[k];
            foreach (int cluster in clusters.Assignment) ++sizes[cluster];
            Console.WriteLine($"k-means, k = {k}: objective {clusters.Objective.ToString("G6", CultureInfo.InvariantCulture)}");
            Console.WriteLine("cluster sizes: " + string.Join(" ", sizes));
        }
    }

    /// <summary>DC-SVM on the first 4000 rows of the binary training file; accuracy on the test file.</summary>
    static void Classify(string trainPath, string testPath)
    {
        const int TrainRows = 4000;
        using (var ctx = new Context("threads=2 seed=42"))
        using (var all = Dataset.Load(ctx, trainPath))
        using (var test = Dataset.Load(ctx, testPath))
        using (var kernel = new Kernel("kernel=rbf gamma=16"))
        using (var solver = new Solver("method=dcsvm C=8"))
        {
            long n = Math.Min(TrainRows, all.Rows);
            var labels = new double[n];
            Array.Copy(all.GetLabels(), labels, n);
            using (var train = new Dataset(all.GetRows(0, n), all.Cols, labels))
            {
                var clock = Stopwatch.StartNew();
                using (Model model = solver.Train(ctx, kernel, train))
                {
                    double trainSeconds = clock.Elapsed.TotalSeconds;
                    clock.Restart();
                    double[] predicted = model.Predict(ctx, test);
                    double predictSeconds = clock.Elapsed.TotalSeconds;
                    double[] truth = test.GetLabels();
                    int right = 0;
                    for (int i = 0; i < truth.Length; ++i)
                        if (predicted[i] == truth[i]) ++right;
                    Console.WriteLine($"DC-SVM (C = 8, RBF gamma = 16) on {n} rows of {Path.GetFileName(trainPath)}: " +
                                      $"{model.SupportVectors} support vectors, trained in {F(trainSeconds)} s");
                    Console.WriteLine($"accuracy on {truth.Length} rows of {Path.GetFileName(testPath)}: " +
                                      $"{F(100.0 * right / truth.Length)}% (predicted in {F(predictSeconds)} s)");
                }
            }
        }
    }

    static string F(double value) => value.ToString("F2", CultureInfo.InvariantCulture);
}
