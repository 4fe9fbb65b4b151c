// A user's project that uses the NuGet package Kmx (test csharp_nuget): exact kernel ridge regression on two rows,
// its predictions at two more rows. Prints "model Q VALUE" per query row Q; the test compares them with the closed
// form (the same rows and parameters are in bindings/package_consumer.py).
using System;
using System.Globalization;
using Kmx;

static class Program
{
    static int Main()
    {
        double[] x = { 0, 0, 1, 0 };                 // two rows of two columns
        double[] y = { 1, -0.5 };
        double[,] queries = { { 0.25, 0.5 }, { 2, -1 } };
        Console.WriteLine("kmx " + Library.Version);
        using (var train = new Dataset(x, 2, y))
        using (var test = new Dataset(queries))
        using (var kernel = new Kernel("kernel=rbf gamma=0.5"))
        using (var solver = new Solver("method=krr lambda=0.05 task=regression"))
        using (Model model = solver.Train(null, kernel, train))
        {
            double[] fitted = model.Predict(null, test);
            for (int q = 0; q < fitted.Length; q++)
                Console.WriteLine(string.Format(CultureInfo.InvariantCulture, "model {0} {1:R}", q, fitted[q]));
        }
        return 0;
    }
}
