// Integration and e2e tests boot servers and wait on real services.
jest.setTimeout(120_000);
