import { z } from 'zod';
import {
  ActivateDeviceBody,
  AssignDealerBody,
  CaseCodeBody,
  CaseDetail,
  CatalogImportResult,
  CreateCaseBody,
  Device,
  DeviceActivateBody,
  DeviceListQuery,
  DeviceListResult,
  DeviceSerialBody,
  DeviceToken,
  EditDeviceNameBody,
  EmptyEnvelope,
  HeartbeatBody,
  LabRefList,
  OrgType,
  SaveCertifiedLabsBody,
  SaveDesignatedLabsBody,
  envelope,
} from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import { authenticatesWith } from '../../platform/api-docs.js';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import { multipartParts, readLimited, type MultipartLimits } from '../../platform/multipart.js';
import type { Module } from '../../platform/services.js';
import type { CasesService } from '../cases/cases.service.js';
import type { DeviceCaller, DevicesService } from './devices.service.js';

const CATALOG_MAX_BYTES = 5 * 1024 * 1024;
const CATALOG_PARTS: MultipartLimits = { fields: [], fileField: 'file', maxFiles: 1, maxFileBytes: CATALOG_MAX_BYTES };

declare module 'fastify' {
  interface FastifyRequest {
    device?: DeviceCaller;
  }
}

export function devicesModule(devices: DevicesService, cases: CasesService): Module {
  const deviceAuth = authenticatesWith('device', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    request.device = await devices.authenticate(
      typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined,
    );
  });
  return {
    publicRoutes(app) {
      // The scanner software's API: its own activation, then calls with the device token.
      app.post(
        '/device/activate',
        {
          schema: {
            tags: ['device API'],
            summary: 'A scanner bound to a clinic gets its device token',
            body: DeviceActivateBody,
            response: { 200: envelope(DeviceToken) },
          },
          config: { rateLimit: { max: 20, timeWindow: '1 minute' }, errors: ['DEVICE_ACTIVATION_FAILED'] },
        },
        async (request) =>
          ok(request, await devices.deviceToken(request.body.serialNumber, request.body.activationCode)),
      );

      app.post(
        '/device/heartbeat',
        {
          schema: {
            tags: ['device API'],
            summary: 'The scanner is alive; battery health in percent',
            body: HeartbeatBody,
            response: { 200: EmptyEnvelope },
          },
          onRequest: deviceAuth,
        },
        async (request) => {
          await devices.heartbeat(request.device!.deviceId, request.body.batteryHealth);
          return ok(request, null);
        },
      );

      app.post(
        '/device/case/create',
        {
          schema: {
            tags: ['device API'],
            summary: "A new case in the scanner's clinic, with its patient data; files follow over tus",
            body: CreateCaseBody,
            response: { 200: envelope(CaseDetail) },
          },
          config: { errors: ['DEVICE_STATUS_CONFLICT'] },
          onRequest: deviceAuth,
        },
        async (request) => {
          const d = request.device!;
          const created = await cases.create(d.organizationId, null, request.body, { deviceId: d.deviceId });
          await devices.setTransfer(d.deviceId, 'DataTransferring');
          return ok(request, created);
        },
      );

      app.post(
        '/device/case/complete',
        {
          schema: {
            tags: ['device API'],
            summary: 'The scan is complete: every file of the case is uploaded',
            body: CaseCodeBody,
            response: { 200: envelope(CaseDetail) },
          },
          config: { errors: ['NOT_FOUND', 'DEVICE_STATUS_CONFLICT'] },
          onRequest: deviceAuth,
        },
        async (request) => {
          const d = request.device!;
          const done = await cases.completeScan(d.organizationId, d.deviceId, request.body.caseCode);
          await devices.setTransfer(d.deviceId, 'DataTransferred');
          return ok(request, done);
        },
      );
    },
    privateRoutes(app) {
      app.post(
        '/equipment/listEquipment',
        {
          schema: {
            tags: ['equipment'],
            summary: 'Scanners the organization owns, sells or makes',
            body: DeviceListQuery,
            response: { 200: envelope(DeviceListResult) },
          },
          config: { permission: 'device:view' },
        },
        async (request) =>
          ok(
            request,
            await devices.list(
              { id: request.auth.organizationId, type: request.auth.orgType },
              request.body,
              request.timezone,
            ),
          ),
      );

      app.post(
        '/equipment/editName',
        {
          schema: {
            tags: ['equipment'],
            summary: "Rename one of the clinic's scanners",
            body: EditDeviceNameBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'device:edit', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await devices.rename(request.auth.organizationId, request.body.serialNumber, request.body.name);
          return ok(request, null);
        },
      );

      app.post(
        '/equipment/activate',
        {
          schema: {
            tags: ['equipment'],
            summary: 'A clinic binds a scanner with its serial number and activation code',
            body: ActivateDeviceBody,
            response: { 200: envelope(Device) },
          },
          config: {
            permission: 'device:edit',
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['DEVICE_ACTIVATION_FAILED', 'DEVICE_STATUS_CONFLICT'],
          },
        },
        async (request) => {
          if (request.auth.orgType !== OrgType.Clinic) fail('NO_PERMISSION');
          return ok(
            request,
            await devices.activateForClinic(
              request.auth.organizationId,
              request.body.serialNumber,
              request.body.activationCode,
            ),
          );
        },
      );

      app.post(
        '/equipment/listDesignatedLabs',
        {
          schema: {
            tags: ['equipment'],
            summary: 'The laboratories a limit-type-1 scanner of the clinic may send to',
            body: DeviceSerialBody,
            response: { 200: envelope(LabRefList) },
          },
          config: { permission: 'device:view', errors: ['NOT_FOUND'] },
        },
        async (request) => {
          if (request.auth.orgType !== OrgType.Clinic) fail('NO_PERMISSION');
          return ok(request, await devices.designatedLabs(request.auth.organizationId, request.body.serialNumber));
        },
      );

      app.post(
        '/equipment/saveDesignatedLabs',
        {
          schema: {
            tags: ['equipment'],
            summary: "Replace the laboratories a clinic's scanner may send to (limit type 1)",
            body: SaveDesignatedLabsBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'device:edit', errors: ['NOT_FOUND', 'NOT_A_LAB'] },
        },
        async (request) => {
          if (request.auth.orgType !== OrgType.Clinic) fail('NO_PERMISSION');
          await devices.saveDesignatedLabs(
            request.auth.organizationId,
            request.body.serialNumber,
            request.body.labCodes,
          );
          return ok(request, null);
        },
      );

      app.post(
        '/equipment/listCertifiedLabs',
        {
          schema: {
            tags: ['equipment'],
            summary: 'The laboratories an OEM certifies for its scanners (limit type 2)',
            response: { 200: envelope(LabRefList) },
          },
          config: { permission: 'device:view' },
        },
        async (request) => {
          if (request.auth.orgType !== OrgType.Oem) fail('NO_PERMISSION');
          return ok(request, await devices.certifiedLabs(request.auth.organizationId));
        },
      );

      app.post(
        '/equipment/saveCertifiedLabs',
        {
          schema: {
            tags: ['equipment'],
            summary: 'Replace the laboratories an OEM certifies (limit type 2)',
            body: SaveCertifiedLabsBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'device:import', errors: ['NOT_A_LAB'] },
        },
        async (request) => {
          if (request.auth.orgType !== OrgType.Oem) fail('NO_PERMISSION');
          await devices.saveCertifiedLabs(request.auth.organizationId, request.body.labCodes);
          return ok(request, null);
        },
      );

      app.post(
        '/equipment/assignDealer',
        {
          schema: {
            tags: ['equipment'],
            summary: 'An OEM assigns its scanners to the dealer that sells them',
            body: AssignDealerBody,
            response: { 200: envelope(z.object({ count: z.number() })) },
          },
          config: { permission: 'device:assign', errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, {
            count: await devices.assignDealer(
              request.auth.organizationId,
              request.body.serialNumbers,
              request.body.dealerCode,
            ),
          }),
      );

      app.post(
        '/equipment/import_product_catalog',
        {
          schema: {
            tags: ['equipment'],
            summary:
              'An OEM imports its product catalogue (multipart field "file": xlsx or csv with model, serialNumber, activationCode, warrantyDate, limitType); all rows or none',
            response: { 200: envelope(CatalogImportResult) },
          },
          config: {
            permission: 'device:import',
            multipart: CATALOG_PARTS,
            errors: ['FILE_TOO_LARGE', 'TOO_MANY_FILES'],
          },
        },
        async (request) => {
          let bytes: Buffer | undefined;
          for await (const part of multipartParts(request)) {
            if (part.type === 'file') bytes = await readLimited(part.file, CATALOG_MAX_BYTES);
          }
          if (!bytes) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
          return ok(request, await devices.importCatalog(request.auth.organizationId, bytes));
        },
      );
    },
  };
}
