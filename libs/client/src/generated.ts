// Generated from the entity registry by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.
import type { CreateModel, EntityJson, SearchBody, UpdateModel } from '@pitwall/contracts';
import { ClientBase, type ClientResult, type Include } from './client-base';

/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */
export class PitwallClient extends ClientBase {
  /** GET /Championships/{id} */
  getChampionshipById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Championships', id, parametersToInclude);
  }
  /** GET /Championships */
  getAllChampionships(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Championships', {}, parametersToInclude);
  }
  /** POST /Championships: the created Championship, all properties populated */
  addChampionship(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Championships', {}, model);
  }
  /** PUT /Championships/{id} */
  updateChampionship(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Championships', id, model);
  }
  /** DELETE /Championships/{id} */
  deleteChampionship(id: string): Promise<ClientResult<null>> {
    return this.remove('Championships', id);
  }
  /** GET /Events/{id} */
  getEventById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Events', id, parametersToInclude);
  }
  /** GET /Events?championshipId= */
  getAllEventsForChampionship(championshipId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Events', { championshipId }, parametersToInclude);
  }
  /** POST /Events: the created Event, all properties populated */
  addEvent(championshipId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Events', { championshipId }, model);
  }
  /** PUT /Events/{id} */
  updateEvent(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Events', id, model);
  }
  /** DELETE /Events/{id} */
  deleteEvent(id: string): Promise<ClientResult<null>> {
    return this.remove('Events', id);
  }
  /** GET /Sessions/{id} */
  getSessionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Sessions', id, parametersToInclude);
  }
  /** GET /Sessions?eventId= */
  getAllSessionsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Sessions', { eventId }, parametersToInclude);
  }
  /** POST /Sessions: the created Session, all properties populated */
  addSession(eventId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Sessions', { eventId }, model);
  }
  /** PUT /Sessions/{id} */
  updateSession(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Sessions', id, model);
  }
  /** DELETE /Sessions/{id} */
  deleteSession(id: string): Promise<ClientResult<null>> {
    return this.remove('Sessions', id);
  }
  /** GET /Cars/{id} */
  getCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Cars', id, parametersToInclude);
  }
  /** GET /Cars */
  getAllCars(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Cars', {}, parametersToInclude);
  }
  /** POST /Cars: the created Car, all properties populated */
  addCar(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Cars', {}, model);
  }
  /** PUT /Cars/{id} */
  updateCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Cars', id, model);
  }
  /** DELETE /Cars/{id} */
  deleteCar(id: string): Promise<ClientResult<null>> {
    return this.remove('Cars', id);
  }
  /** GET /EventCars/{id} */
  getEventCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('EventCars', id, parametersToInclude);
  }
  /** GET /EventCars?eventId=&carId= */
  getAllEventCarsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { eventId, carId }, parametersToInclude);
  }
  /** GET /EventCars?eventId= */
  getAllEventCarsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { eventId }, parametersToInclude);
  }
  /** GET /EventCars?carId= */
  getAllEventCarsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { carId }, parametersToInclude);
  }
  /** POST /EventCars: the created EventCar, all properties populated */
  addEventCar(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('EventCars', { eventId, carId }, model);
  }
  /** PUT /EventCars/{id} */
  updateEventCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('EventCars', id, model);
  }
  /** DELETE /EventCars/{id} */
  deleteEventCar(id: string): Promise<ClientResult<null>> {
    return this.remove('EventCars', id);
  }
  /** GET /Drivers/{id} */
  getDriverById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Drivers', id, parametersToInclude);
  }
  /** GET /Drivers */
  getAllDrivers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Drivers', {}, parametersToInclude);
  }
  /** POST /Drivers: the created Driver, all properties populated */
  addDriver(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Drivers', {}, model);
  }
  /** PUT /Drivers/{id} */
  updateDriver(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Drivers', id, model);
  }
  /** DELETE /Drivers/{id} */
  deleteDriver(id: string): Promise<ClientResult<null>> {
    return this.remove('Drivers', id);
  }
  /** GET /Tracks/{id} */
  getTrackById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Tracks', id, parametersToInclude);
  }
  /** GET /Tracks */
  getAllTracks(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Tracks', {}, parametersToInclude);
  }
  /** POST /Tracks: the created Track, all properties populated */
  addTrack(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Tracks', {}, model);
  }
  /** PUT /Tracks/{id} */
  updateTrack(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Tracks', id, model);
  }
  /** DELETE /Tracks/{id} */
  deleteTrack(id: string): Promise<ClientResult<null>> {
    return this.remove('Tracks', id);
  }
  /** GET /TrackConfigurations/{id} */
  getTrackConfigurationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackConfigurations', id, parametersToInclude);
  }
  /** GET /TrackConfigurations?trackId= */
  getAllTrackConfigurationsForTrack(trackId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackConfigurations', { trackId }, parametersToInclude);
  }
  /** POST /TrackConfigurations: the created TrackConfiguration, all properties populated */
  addTrackConfiguration(trackId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackConfigurations', { trackId }, model);
  }
  /** PUT /TrackConfigurations/{id} */
  updateTrackConfiguration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackConfigurations', id, model);
  }
  /** DELETE /TrackConfigurations/{id} */
  deleteTrackConfiguration(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackConfigurations', id);
  }
  /** GET /TrackSectorDefinitions/{id} */
  getTrackSectorDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackSectorDefinitions', id, parametersToInclude);
  }
  /** GET /TrackSectorDefinitions?trackConfigurationId= */
  getAllTrackSectorDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackSectorDefinitions', { trackConfigurationId }, parametersToInclude);
  }
  /** POST /TrackSectorDefinitions: the created TrackSectorDefinition, all properties populated */
  addTrackSectorDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackSectorDefinitions', { trackConfigurationId }, model);
  }
  /** PUT /TrackSectorDefinitions/{id} */
  updateTrackSectorDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackSectorDefinitions', id, model);
  }
  /** DELETE /TrackSectorDefinitions/{id} */
  deleteTrackSectorDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackSectorDefinitions', id);
  }
  /** GET /TrackSpeedTrapDefinitions/{id} */
  getTrackSpeedTrapDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackSpeedTrapDefinitions', id, parametersToInclude);
  }
  /** GET /TrackSpeedTrapDefinitions?trackConfigurationId= */
  getAllTrackSpeedTrapDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackSpeedTrapDefinitions', { trackConfigurationId }, parametersToInclude);
  }
  /** POST /TrackSpeedTrapDefinitions: the created TrackSpeedTrapDefinition, all properties populated */
  addTrackSpeedTrapDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackSpeedTrapDefinitions', { trackConfigurationId }, model);
  }
  /** PUT /TrackSpeedTrapDefinitions/{id} */
  updateTrackSpeedTrapDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackSpeedTrapDefinitions', id, model);
  }
  /** DELETE /TrackSpeedTrapDefinitions/{id} */
  deleteTrackSpeedTrapDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackSpeedTrapDefinitions', id);
  }
  /** GET /Setups/{id} */
  getSetupById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Setups', id, parametersToInclude);
  }
  /** GET /Setups?eventId=&carId= */
  getAllSetupsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { eventId, carId }, parametersToInclude);
  }
  /** GET /Setups?eventId= */
  getAllSetupsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { eventId }, parametersToInclude);
  }
  /** GET /Setups?carId= */
  getAllSetupsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { carId }, parametersToInclude);
  }
  /** POST /Setups: the created Setup, all properties populated */
  addSetup(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Setups', { eventId, carId }, model);
  }
  /** PUT /Setups/{id} */
  updateSetup(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Setups', id, model);
  }
  /** DELETE /Setups/{id} */
  deleteSetup(id: string): Promise<ClientResult<null>> {
    return this.remove('Setups', id);
  }
  /** GET /EventCarDatas/{id} */
  getEventCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('EventCarDatas', id, parametersToInclude);
  }
  /** GET /EventCarDatas?eventId=&carId= */
  getAllEventCarDatasForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { eventId, carId }, parametersToInclude);
  }
  /** GET /EventCarDatas?eventId= */
  getAllEventCarDatasForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { eventId }, parametersToInclude);
  }
  /** GET /EventCarDatas?carId= */
  getAllEventCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { carId }, parametersToInclude);
  }
  /** POST /EventCarDatas: the created EventCarData, all properties populated */
  addEventCarData(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('EventCarDatas', { eventId, carId }, model);
  }
  /** PUT /EventCarDatas/{id} */
  updateEventCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('EventCarDatas', id, model);
  }
  /** DELETE /EventCarDatas/{id} */
  deleteEventCarData(id: string): Promise<ClientResult<null>> {
    return this.remove('EventCarDatas', id);
  }
  /** GET /Tyres/{id} */
  getTyreById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Tyres', id, parametersToInclude);
  }
  /** GET /Tyres */
  getAllTyres(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Tyres', {}, parametersToInclude);
  }
  /** POST /Tyres: the created Tyre, all properties populated */
  addTyre(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Tyres', {}, model);
  }
  /** PUT /Tyres/{id} */
  updateTyre(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Tyres', id, model);
  }
  /** DELETE /Tyres/{id} */
  deleteTyre(id: string): Promise<ClientResult<null>> {
    return this.remove('Tyres', id);
  }
  /** POST /Tyres/Search (modes 0-4) */
  searchForTyres(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('Tyres', body, parametersToInclude);
  }
  /** GET /TyreWearMeasurements/{id} */
  getTyreWearMeasurementById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreWearMeasurements', id, parametersToInclude);
  }
  /** GET /TyreWearMeasurements?tyreId= */
  getAllTyreWearMeasurementsForTyre(tyreId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearMeasurements', { tyreId }, parametersToInclude);
  }
  /** POST /TyreWearMeasurements: the created TyreWearMeasurement, all properties populated */
  addTyreWearMeasurement(tyreId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreWearMeasurements', { tyreId }, model);
  }
  /** PUT /TyreWearMeasurements/{id} */
  updateTyreWearMeasurement(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreWearMeasurements', id, model);
  }
  /** DELETE /TyreWearMeasurements/{id} */
  deleteTyreWearMeasurement(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreWearMeasurements', id);
  }
  /** GET /IssueListIssues/{id} */
  getIssueListIssueById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('IssueListIssues', id, parametersToInclude);
  }
  /** GET /IssueListIssues */
  getAllIssueListIssues(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('IssueListIssues', {}, parametersToInclude);
  }
  /** POST /IssueListIssues: the created IssueListIssue, all properties populated */
  addIssueListIssue(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('IssueListIssues', {}, model);
  }
  /** PUT /IssueListIssues/{id} */
  updateIssueListIssue(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('IssueListIssues', id, model);
  }
  /** DELETE /IssueListIssues/{id} */
  deleteIssueListIssue(id: string): Promise<ClientResult<null>> {
    return this.remove('IssueListIssues', id);
  }
  /** POST /IssueListIssues/Search (modes 0-4) */
  searchForIssueListIssues(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('IssueListIssues', body, parametersToInclude);
  }
  /** GET /AssemblyIterations/{id} */
  getAssemblyIterationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('AssemblyIterations', id, parametersToInclude);
  }
  /** GET /AssemblyIterations */
  getAllAssemblyIterations(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('AssemblyIterations', {}, parametersToInclude);
  }
  /** POST /AssemblyIterations: the created AssemblyIteration, all properties populated */
  addAssemblyIteration(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('AssemblyIterations', {}, model);
  }
  /** PUT /AssemblyIterations/{id} */
  updateAssemblyIteration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('AssemblyIterations', id, model);
  }
  /** DELETE /AssemblyIterations/{id} */
  deleteAssemblyIteration(id: string): Promise<ClientResult<null>> {
    return this.remove('AssemblyIterations', id);
  }
  /** POST /AssemblyIterations/Search (modes 0-4) */
  searchForAssemblyIterations(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('AssemblyIterations', body, parametersToInclude);
  }
  /** GET /RunSheets/{id} */
  getRunSheetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('RunSheets', id, parametersToInclude);
  }
  /** GET /RunSheets?sessionId=&carId= */
  getAllRunSheetsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { sessionId, carId }, parametersToInclude);
  }
  /** GET /RunSheets?sessionId= */
  getAllRunSheetsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { sessionId }, parametersToInclude);
  }
  /** GET /RunSheets?carId= */
  getAllRunSheetsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { carId }, parametersToInclude);
  }
  /** POST /RunSheets: the created RunSheet, all properties populated */
  addRunSheet(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('RunSheets', { sessionId, carId }, model);
  }
  /** PUT /RunSheets/{id} */
  updateRunSheet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('RunSheets', id, model);
  }
  /** DELETE /RunSheets/{id} */
  deleteRunSheet(id: string): Promise<ClientResult<null>> {
    return this.remove('RunSheets', id);
  }
  /** GET /Laps/{id} */
  getLapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Laps', id, parametersToInclude);
  }
  /** GET /Laps?runSheetId= */
  getAllLapsForRunSheet(runSheetId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Laps', { runSheetId }, parametersToInclude);
  }
  /** POST /Laps: the created Lap, all properties populated */
  addLap(runSheetId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Laps', { runSheetId }, model);
  }
  /** PUT /Laps/{id} */
  updateLap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Laps', id, model);
  }
  /** DELETE /Laps/{id} */
  deleteLap(id: string): Promise<ClientResult<null>> {
    return this.remove('Laps', id);
  }
  /** GET /LapSectors/{id} */
  getLapSectorById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapSectors', id, parametersToInclude);
  }
  /** GET /LapSectors?lapId= */
  getAllLapSectorsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapSectors', { lapId }, parametersToInclude);
  }
  /** POST /LapSectors: the created LapSector, all properties populated */
  addLapSector(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapSectors', { lapId }, model);
  }
  /** PUT /LapSectors/{id} */
  updateLapSector(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapSectors', id, model);
  }
  /** DELETE /LapSectors/{id} */
  deleteLapSector(id: string): Promise<ClientResult<null>> {
    return this.remove('LapSectors', id);
  }
  /** GET /LapSpeedTraps/{id} */
  getLapSpeedTrapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapSpeedTraps', id, parametersToInclude);
  }
  /** GET /LapSpeedTraps?lapId= */
  getAllLapSpeedTrapsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapSpeedTraps', { lapId }, parametersToInclude);
  }
  /** POST /LapSpeedTraps: the created LapSpeedTrap, all properties populated */
  addLapSpeedTrap(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapSpeedTraps', { lapId }, model);
  }
  /** PUT /LapSpeedTraps/{id} */
  updateLapSpeedTrap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapSpeedTraps', id, model);
  }
  /** DELETE /LapSpeedTraps/{id} */
  deleteLapSpeedTrap(id: string): Promise<ClientResult<null>> {
    return this.remove('LapSpeedTraps', id);
  }
  /** GET /SessionCarDatas/{id} */
  getSessionCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionCarDatas', id, parametersToInclude);
  }
  /** GET /SessionCarDatas?sessionId=&carId= */
  getAllSessionCarDatasForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { sessionId, carId }, parametersToInclude);
  }
  /** GET /SessionCarDatas?sessionId= */
  getAllSessionCarDatasForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { sessionId }, parametersToInclude);
  }
  /** GET /SessionCarDatas?carId= */
  getAllSessionCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { carId }, parametersToInclude);
  }
  /** POST /SessionCarDatas: the created SessionCarData, all properties populated */
  addSessionCarData(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionCarDatas', { sessionId, carId }, model);
  }
  /** PUT /SessionCarDatas/{id} */
  updateSessionCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionCarDatas', id, model);
  }
  /** DELETE /SessionCarDatas/{id} */
  deleteSessionCarData(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionCarDatas', id);
  }
  /** GET /ExternalSimulationProfiles/{id} */
  getExternalSimulationProfileById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('ExternalSimulationProfiles', id, parametersToInclude);
  }
  /** GET /ExternalSimulationProfiles */
  getAllExternalSimulationProfiles(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ExternalSimulationProfiles', {}, parametersToInclude);
  }
  /** POST /ExternalSimulationProfiles: the created ExternalSimulationProfile, all properties populated */
  addExternalSimulationProfile(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('ExternalSimulationProfiles', {}, model);
  }
  /** PUT /ExternalSimulationProfiles/{id} */
  updateExternalSimulationProfile(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('ExternalSimulationProfiles', id, model);
  }
  /** DELETE /ExternalSimulationProfiles/{id} */
  deleteExternalSimulationProfile(id: string): Promise<ClientResult<null>> {
    return this.remove('ExternalSimulationProfiles', id);
  }
  /** GET /ParameterDefinitions/{id} */
  getParameterDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('ParameterDefinitions', id, parametersToInclude);
  }
  /** GET /ParameterDefinitions */
  getAllParameterDefinitions(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ParameterDefinitions', {}, parametersToInclude);
  }
  /** POST /ParameterDefinitions: the created ParameterDefinition, all properties populated */
  addParameterDefinition(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('ParameterDefinitions', {}, model);
  }
  /** PUT /ParameterDefinitions/{id} */
  updateParameterDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('ParameterDefinitions', id, model);
  }
  /** DELETE /ParameterDefinitions/{id} */
  deleteParameterDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('ParameterDefinitions', id);
  }
}
